import type { ManagedTimerId, TimeoutProvider } from '@tanstack/react-query';
import { afterHydration } from './hydration.ts';

/** A timeout asked for while the page was hydrating: set once it is hydrated, for the time that is left. */
class LaterTimeout {
  id: ReturnType<typeof setTimeout> | undefined;
  cleared = false;
  [Symbol.toPrimitive](): number {
    return Number(this.id ?? 0);
  }
}

/**
 * TanStack Query's timers (a query's garbage collection after `gcTime`, an observer's `staleTime`): those asked for
 * while a server-rendered page hydrates are set once it is hydrated (lib/hydration.ts `afterHydration`, issue 15:
 * under Lighthouse every timer set records the JavaScript stack, ~3 ms of a first pass of 15 ms on the parts list).
 * They are minutes and seconds long; the time spent waiting is taken off. Intervals are not deferred.
 */
export const hydrationAwareTimeouts: TimeoutProvider<ManagedTimerId> = {
  setTimeout(callback, delay) {
    const timeout = new LaterTimeout();
    const asked = Date.now();
    afterHydration(() => {
      if (!timeout.cleared) timeout.id = setTimeout(callback, Math.max(0, delay - (Date.now() - asked)));
    });
    return timeout;
  },
  clearTimeout(timeout) {
    if (!(timeout instanceof LaterTimeout)) return;
    timeout.cleared = true;
    clearTimeout(timeout.id);
  },
  setInterval: (callback, delay) => setInterval(callback, delay) as unknown as number,
  clearInterval: (interval) => clearInterval(interval as unknown as ReturnType<typeof setInterval>),
};
