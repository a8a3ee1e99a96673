import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** Fresh copies of the hydration state (the page's) and the timers that depend on it. */
async function freshPage() {
  vi.resetModules();
  vi.stubGlobal('document', { documentElement: { dataset: {} } });
  const hydration = await import('./hydration.ts');
  const { hydrationAwareTimeouts } = await import('./query-timers.ts');
  return { hydration, timeouts: hydrationAwareTimeouts };
}

describe("the queries' timers while a server-rendered page hydrates (issue 15)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('are set at once when no page is hydrating', async () => {
    const { timeouts } = await freshPage();
    const fired = vi.fn();
    timeouts.setTimeout(fired, 1000);
    vi.advanceTimersByTime(999);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledOnce();
  });

  it('are set once the page is hydrated, for the time that is left', async () => {
    const { hydration, timeouts } = await freshPage();
    hydration.startHydration();
    const fired = vi.fn();
    timeouts.setTimeout(fired, 1000);
    vi.advanceTimersByTime(5000);
    expect(fired, 'not while the page hydrates').not.toHaveBeenCalled();
    hydration.markHydrated();
    // 5 s have passed since it was asked for: it is due.
    vi.advanceTimersByTime(0);
    expect(fired).toHaveBeenCalledOnce();

    const later = vi.fn();
    timeouts.setTimeout(later, 300);
    vi.advanceTimersByTime(300);
    expect(later, 'set at once after the hydration').toHaveBeenCalledOnce();
  });

  it('can be cleared before and after they are set', async () => {
    const { hydration, timeouts } = await freshPage();
    hydration.startHydration();
    const clearedEarly = vi.fn();
    const clearedLate = vi.fn();
    timeouts.clearTimeout(timeouts.setTimeout(clearedEarly, 100));
    const late = timeouts.setTimeout(clearedLate, 100);
    hydration.markHydrated();
    timeouts.clearTimeout(late);
    vi.advanceTimersByTime(1000);
    expect(clearedEarly).not.toHaveBeenCalled();
    expect(clearedLate).not.toHaveBeenCalled();
  });
});
