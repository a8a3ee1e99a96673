import { afterAll, afterEach, beforeEach, vi } from 'vitest';
import { stopAllServers } from './support/server-process.ts';

// A test fails on any unexpected console.error: errors that are only logged are errors nobody sees.
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (errors.length > 0) {
    throw new Error(`Unexpected console.error:\n${errors.map((args) => args.map(String).join(' ')).join('\n')}`);
  }
});

// A server process a test started must not outlive its file, even when an assertion failed before its stop().
afterAll(stopAllServers);
