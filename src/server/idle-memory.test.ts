import v8 from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { type IdleMemory, startIdleMemoryRelease } from './idle-memory.ts';

const newSpaceMb = () =>
  (v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0) / 1e6;

/** Keeps the event loop busy for `ms`, allocating short-lived objects as a server under load does. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  let keep: unknown[] = [];
  while (performance.now() < until) {
    keep = Array.from({ length: 1000 }, (_, i) => ({ i, text: `row ${i}` }));
  }
  expect(keep.length).toBe(1000);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `rounds` busy spells of 120 ms, each followed by `quietMs` of quiet. */
async function busyThenQuiet(rounds: number, quietMs: number): Promise<void> {
  for (let round = 0; round < rounds; round += 1) {
    busyFor(120);
    await sleep(quietMs);
  }
}

describe('memory given back after a quiet spell', () => {
  let release: IdleMemory | undefined;
  afterEach(() => release?.stop());

  it('collects once the loop is quiet, shrinking the young generation, and not again until it was busy', async () => {
    // Grow the young generation the way start-up and load do.
    for (let i = 0; i < 20; i += 1) busyFor(20);
    const grown = newSpaceMb();
    const collections: number[] = [];
    // Quiet below half of a 100 ms sample: the test runner's own work here stays under that on a busy machine too.
    release = startIdleMemoryRelease({
      sampleMs: 100,
      quietUtilization: 0.5,
      quietForMs: 100,
      minIntervalMs: 0,
      onCollected: () => collections.push(newSpaceMb()),
    });
    // The first sample saw the busy spell above; a quiet one follows.
    for (let i = 0; i < 40 && collections.length === 0; i += 1) await sleep(50);
    expect(collections).toHaveLength(1);
    expect(collections[0]).toBeLessThan(grown);

    // Still quiet: nothing more to give back, no second collection.
    await sleep(500);
    expect(collections).toHaveLength(1);

    // Busy again, then quiet: collected again.
    for (let i = 0; i < 10; i += 1) {
      busyFor(40);
      await sleep(1);
    }
    for (let i = 0; i < 40 && collections.length === 1; i += 1) await sleep(50);
    expect(collections).toHaveLength(2);
  });

  /** Collections counted, sampling every 50 ms (quiet below half of a sample). */
  const counted = (options: { quietForMs: number; minIntervalMs: number }) => {
    const collections: number[] = [];
    release = startIdleMemoryRelease({
      sampleMs: 50,
      quietUtilization: 0.5,
      ...options,
      onCollected: () => collections.push(1),
    });
    return collections;
  };

  it('takes a pause shorter than quietForMs between busy spells for no rest', async () => {
    const collections = counted({ quietForMs: 1000, minIntervalMs: 0 });
    // Busy, then 400 ms quiet (8 quiet samples, fewer than the 20 that make a second), four times over.
    await busyThenQuiet(4, 400);
    expect(collections).toHaveLength(0);
    // Quiet for longer than that: collected.
    for (let i = 0; i < 60 && collections.length === 0; i += 1) await sleep(50);
    expect(collections).toHaveLength(1);
  });

  it('waits minIntervalMs between collections however busy and quiet the loop turns', async () => {
    const collections = counted({ quietForMs: 50, minIntervalMs: 60_000 });
    await busyThenQuiet(3, 300);
    expect(collections.length).toBeLessThanOrEqual(1);
  });
});
