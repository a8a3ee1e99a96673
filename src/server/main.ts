import module from 'node:module';
import { registerModuleHooks } from './module-hooks.ts';

// The production entry. The hooks must be in place before anything imports drizzle-orm: static imports are all
// resolved before any module runs, so the server itself (serve.ts) is imported only once they are.
// The compile cache keeps V8's compiled code (and the stripped TypeScript) between starts: a cold start compiles
// and strips the types of every module otherwise.
module.enableCompileCache?.();
registerModuleHooks();
await import('./serve.ts');
