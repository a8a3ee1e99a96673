import { registerModuleHooks } from './module-hooks.ts';

// The production entry. The hooks must be in place before anything imports drizzle-orm: static imports are all
// resolved before any module runs, so the server itself (serve.ts) is imported only once they are.
registerModuleHooks();
await import('./serve.ts');
