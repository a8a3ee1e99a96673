/**
 * The page's only script tag (ADR 018): `assets/boot-<hash>.js`, a classic `defer` script that the build
 * (vite.config.ts, `startAfterFirstPaint`) writes from this function's source, so it must not use anything from
 * outside its body (the ids come in as arguments).
 *
 * It starts the app: a `<link rel="modulepreload">` for every chunk the page needs (the entry's imports, the home
 * route's chunks, the server-rendered route's chunks) and the entry as a module script. On a page the server
 * rendered, the page is complete without its script, so it is started only after the browser has painted it: the
 * ~180 KiB of script then no longer shares the network and the main thread with the page's first paint and its
 * largest image (issue 15, LCP). Pages the browser renders (signed-in pages: the shell) and pages in a hidden tab
 * (which paint nothing) start at once. A button pressed before the app runs is pressed again once it does.
 */
export function bootApp(ids: { scripts: string; routeModules: string; serverState: string }): void {
  const read = (id: string): unknown => {
    const text = document.getElementById(id)?.textContent;
    return text ? JSON.parse(text) : null;
  };
  const start = () => {
    const scripts = read(ids.scripts) as { entry: string; preload: string[] } | null;
    if (!scripts) return;
    const routeModules = (read(ids.routeModules) as string[] | null) ?? [];
    for (const href of [...scripts.preload, ...routeModules]) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
    const entry = document.createElement('script');
    entry.type = 'module';
    entry.crossOrigin = '';
    entry.src = scripts.entry;
    document.head.append(entry);
  };
  // Until the app has taken the page over, a button that only the app handles does nothing when pressed (links and
  // forms work without it). Such presses are remembered and made again once the page is hydrated (lib/hydration.ts
  // sets data-hydrated), on the same element if React kept it: a visitor's first tap is not lost.
  const pressed: HTMLElement[] = [];
  const remember = (event: Event) => {
    const target = event.target instanceof Element ? event.target.closest('button[type="button"]') : null;
    if (target instanceof HTMLElement) pressed.push(target);
  };
  document.addEventListener('click', remember, true);
  const whenHydrated = new MutationObserver(() => {
    if (document.documentElement.dataset.hydrated !== 'true') return;
    whenHydrated.disconnect();
    document.removeEventListener('click', remember, true);
    // After the updates that hydration starts (the stored sign-in, the cart) have been rendered.
    setTimeout(() => {
      for (const element of pressed) if (element.isConnected) element.click();
    }, 0);
  });
  whenHydrated.observe(document.documentElement, { attributes: true, attributeFilter: ['data-hydrated'] });

  if (document.getElementById(ids.serverState) && document.visibilityState === 'visible') {
    // The callback of the next frame runs before that frame is painted; the timer's task runs after it.
    requestAnimationFrame(() => setTimeout(start, 0));
  } else {
    start();
  }
}
