import { useSyncExternalStore } from 'react';

/**
 * One value kept in this browser's localStorage under `key` and shared by every component that shows it (the
 * visitor's cart, the visitor's garage): read through `useSyncExternalStore`, followed across tabs, and kept in memory
 * when storage is blocked (private mode) so the page still works until it is left.
 */
export function localStore<T>({
  key,
  empty,
  parse,
  isEmpty,
}: {
  key: string;
  /** What is shown when nothing (valid) is stored; returned as the same object every time. */
  empty: T;
  /** The stored value if it still has the expected shape (older releases or a hand edit may have written it), else null. */
  parse(value: unknown): T | null;
  /** An empty value removes the key instead of storing it. */
  isEmpty(value: T): boolean;
}) {
  let cached: { raw: string | null; value: T } = { raw: null, value: empty };
  const listeners = new Set<() => void>();

  function readRaw(): string | null {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  }

  /** The same value for the same stored text, as useSyncExternalStore requires. */
  function read(): T {
    const raw = readRaw();
    if (raw === cached.raw) return cached.value;
    let value = empty;
    if (raw) {
      try {
        // Something else wrote the key, or an older shape: start again rather than fail every page.
        value = parse(JSON.parse(raw)) ?? empty;
      } catch {
        value = empty;
      }
    }
    cached = { raw, value };
    return value;
  }

  function write(next: T) {
    try {
      if (isEmpty(next)) localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify(next));
    } catch {
      // Storage blocked (private mode): this page keeps the change in memory below.
    }
    cached = { raw: readRaw(), value: next };
    for (const listener of listeners) listener();
  }

  function subscribe(listener: () => void) {
    listeners.add(listener);
    // Another tab changed the value: follow it.
    const onStorage = (event: StorageEvent) => {
      if (event.key === key || event.key === null) listener();
    };
    window.addEventListener('storage', onStorage);
    return () => {
      listeners.delete(listener);
      window.removeEventListener('storage', onStorage);
    };
  }

  function useValue(): T {
    // Empty on the server (it cannot see it) and in the render that hydrates a server-rendered page, as the server
    // rendered it; React renders again with the stored value right after.
    return useSyncExternalStore(subscribe, read, () => empty);
  }

  return { read, write, useValue };
}
