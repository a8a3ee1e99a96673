import { config } from 'zod';

// Zod probes `new Function('')` once to decide whether it may compile validators; under our CSP (no
// 'unsafe-eval') that probe logs a violation on every page. Jitless mode skips the probe entirely.
config({ jitless: true });

// The browser build resolves every other `import … from 'zod'` to this module (vite.config.ts, zodJitlessFirst),
// so no schema is built before the line above has run.
export * from 'zod';
