/**
 * Preloaded (`node --import`) into every server process the tests start. When the process that started it dies
 * without stopping it (a test worker killed on a timeout, a runner killed with SIGKILL), the server is re-parented;
 * it then stops itself the way an operator would (SIGTERM, its graceful shutdown) instead of running on for ever.
 * Same pid, same signals and exit codes as without it: nothing the tests check changes.
 * Plain JavaScript: a TypeScript preload would load Node's type stripper (time and memory) into a server that runs its
 * JavaScript bundle (ADR 022), and the start-up and memory benchmarks would measure it.
 */
const parent = process.ppid;
const watch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(watch);
  process.kill(process.pid, 'SIGTERM');
  // A shutdown that hangs must not keep an orphan alive either.
  setTimeout(() => process.exit(1), 15_000).unref();
}, 500);
watch.unref();

// A module, so its names stay its own.
export {};
