/** Debian's Chromium: the only browser here (tests and benchmarks never download one). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Flags for every Chromium we start, headless as root: nothing may leave this machine, so Chromium's own background
 * traffic (updates, sync, component downloads, QUIC probes) is switched off.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];
