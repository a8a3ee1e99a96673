/**
 * The page's only script tag (ADR 021): `assets/boot-<hash>.js`, a classic `defer` script that the build
 * (vite.config.ts, `startAfterFirstPaint`) writes from this function's source, so it must not use anything from
 * outside its body (the ids come in as arguments).
 *
 * It starts the app: a `<link rel="modulepreload">` for every chunk the page needs (the entry's imports, the home
 * route's chunks, the server-rendered route's chunks) and the entry as a module script. On a page the server
 * rendered, the page is complete without its script, so it is started only after the browser has painted it and its
 * main picture: the ~100 KiB of script then no longer shares the network and the main thread with the page's first
 * paint and its largest image (issue 15, LCP). Pages the browser renders (signed-in pages: the shell) and pages in a hidden tab
 * (which paint nothing) start at once. What a visitor did before the app ran is handed to it once it runs.
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
    const hrefs = [...scripts.preload, ...routeModules];
    const entry = document.createElement('script');
    entry.type = 'module';
    entry.crossOrigin = '';
    entry.src = scripts.entry;
    // The app could not be loaded (offline, a deploy gone wrong): the page stays as the server sent it, and what was
    // held back goes the way plain HTML takes it.
    entry.addEventListener('error', () => giveUp());
    // The browser starts a chunk's request as its tag is inserted, ~1 ms each (~5 ms under Lighthouse's recording,
    // 20 ms on its simulated phone): one tag per task, so starting ~15 requests is no long task (issue 15, TBT). The
    // entry goes in last, when its imports are already on their way.
    const tags: HTMLElement[] = hrefs.map((href) => {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      return link;
    });
    tags.push(entry);
    const insert = (index: number) => {
      const tag = tags[index];
      if (!tag) return;
      document.head.append(tag);
      setTimeout(() => insert(index + 1), 0);
    };
    insert(0);
  };
  // Until the app has taken the page over, what a visitor does is seen only by the browser: links work, but a button
  // that only the app handles does nothing, a form would be sent as a plain GET of the page (its fields in the
  // address), and text typed into a field is in the field but not in the app's state, so the app's next render of the
  // field empties it. So, until the page is hydrated (lib/hydration.ts sets data-hydrated), presses of such buttons
  // and sent forms are remembered (a form is held back, and sent once however often it was sent), and each field's
  // value as last typed. The moment the page is hydrated (this observer's callback runs before the app renders
  // anything else), each field gets that value back and tells the app, with an `input` and a `change` event as typing
  // would. The presses and forms are made again, on the same elements if they are still in the page, once the app also
  // knows who is using it (data-interactive: a stored sign-in checked), so an order is placed for the signed-in
  // customer. A visitor's first tap or typing is not lost.
  type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
  const pressed: HTMLElement[] = [];
  const sent = new Map<HTMLFormElement, HTMLElement | null>();
  const typed = new Map<Field, { value: string; checked: boolean }>();
  // Held presses and sends do not go on to the page's own handlers either: a block hydrated in a task of its own
  // (HydrateLater, ADR 023) has them before the rest of the page is hydrated, and would act on a form the hand-over
  // has not filled in yet (a quantity typed before that block was hydrated) or before the app knows who is using it.
  // They reach it once, when they are made again.
  const onClick = (event: Event) => {
    const target = event.target instanceof Element ? event.target.closest('button[type="button"]') : null;
    if (!(target instanceof HTMLElement)) return;
    event.stopPropagation();
    pressed.push(target);
  };
  const onSubmit = (event: Event) => {
    if (!(event.target instanceof HTMLFormElement)) return;
    event.preventDefault();
    event.stopPropagation();
    sent.set(event.target, (event as SubmitEvent).submitter);
  };
  const onInput = (event: Event) => {
    const field = event.target;
    if (
      field instanceof HTMLInputElement ||
      field instanceof HTMLTextAreaElement ||
      field instanceof HTMLSelectElement
    ) {
      typed.set(field, { value: field.value, checked: field instanceof HTMLInputElement && field.checked });
    }
  };
  // Between the hydration and the hand-over (about a frame) the app may render a field again with its own state,
  // which empties what the visitor had typed. Only the visitor's typing changes a field's text before the hand-over,
  // so a text that is not the one they left is put back before their next keystroke lands.
  /** Each held form, still in the page, sent again by the button that sent it if that is still one of its own. */
  const sendAgain = () => {
    for (const [form, submitter] of sent) {
      if (!form.isConnected) continue;
      const button = submitter as HTMLButtonElement | null;
      form.requestSubmit(button?.isConnected && button.form === form ? button : null);
    }
  };
  const onBeforeInput = (event: Event) => {
    const field = event.target;
    if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) return;
    const left = typed.get(field);
    if (left && field.value !== left.value) field.value = left.value;
  };
  // A text field's `change` comes when it loses focus, with whatever it holds then: a block hydrated meanwhile may have
  // set it to its own default (react-hook-form does as it registers a field), and that must not replace what the
  // visitor typed, which `input` recorded. Boxes and lists are recorded from `change` too.
  const onChange = (event: Event) => {
    const field = event.target;
    if (
      field instanceof HTMLSelectElement ||
      (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio'))
    ) {
      onInput(event);
    }
  };
  const listeners: [string, (event: Event) => void][] = [
    ['click', onClick],
    ['submit', onSubmit],
    ['beforeinput', onBeforeInput],
    ['input', onInput],
    ['change', onChange],
  ];
  for (const [type, listener] of listeners) document.addEventListener(type, listener, true);
  const whenHydrated = new MutationObserver(() => {
    if (document.documentElement.dataset.hydrated !== 'true') return;
    whenHydrated.disconnect();
    for (const [type, listener] of listeners) document.removeEventListener(type, listener, true);
    for (const [field, { value, checked }] of typed) {
      if (!field.isConnected) continue;
      if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) {
        field.checked = checked;
      } else {
        field.value = value;
      }
      field.dispatchEvent(new Event('input', { bubbles: true }));
      field.dispatchEvent(new Event('change', { bubbles: true }));
    }
    if (pressed.length === 0 && sent.size === 0) return;
    // In a task after the one that made the app interactive, so what that changed (the signed-in user, the cart) has
    // been rendered.
    const replay = () =>
      setTimeout(() => {
        for (const element of pressed) if (element.isConnected) element.click();
        sendAgain();
      }, 0);
    if (document.documentElement.dataset.interactive === 'true') {
      replay();
      return;
    }
    const whenInteractive = new MutationObserver(() => {
      if (document.documentElement.dataset.interactive !== 'true') return;
      whenInteractive.disconnect();
      replay();
    });
    whenInteractive.observe(document.documentElement, { attributes: true, attributeFilter: ['data-interactive'] });
  });
  whenHydrated.observe(document.documentElement, { attributes: true, attributeFilter: ['data-hydrated'] });
  const giveUp = () => {
    whenHydrated.disconnect();
    for (const [type, listener] of listeners) document.removeEventListener(type, listener, true);
    sendAgain();
  };

  if (document.getElementById(ids.serverState) && document.visibilityState === 'visible') {
    // Once the page's first paint and its main pictures (the images it asks for first: the hero, a part's photo,
    // usually its largest paint) are on the screen, or after 3 s at most. "On the screen" as the browser reports it
    // (Paint Timing's first contentful paint; Element Timing for a picture marked `elementtiming`): the frame reaches
    // the screen after its callbacks have run, tens of ms later on a phone without a fast GPU, and a request started
    // in between counts in Lighthouse's simulation as one the paint waited for (issue 15: a run's LCP 1.2 → 1.9 s
    // with the chunks' requests started there). A picture outside the first screen may never be painted: its arrival
    // is enough. Where the browser reports neither, after the frame that follows the pictures' arrival.
    const reports = typeof PerformanceObserver === 'function' ? (PerformanceObserver.supportedEntryTypes ?? []) : [];
    const seesPaint = reports.includes('paint');
    const seesPictures = reports.includes('element');
    const waiting = new Set<Element>();
    let painted = !seesPaint;
    // Whether the start waits for a frame after the last report (a picture waited for by its arrival only).
    let afterFrame = !seesPaint;
    let started = false;
    let observer: PerformanceObserver | undefined;
    let firstScreen: IntersectionObserver | undefined;
    const once = () => {
      if (started) return;
      started = true;
      observer?.disconnect();
      firstScreen?.disconnect();
      if (afterFrame) requestAnimationFrame(() => setTimeout(start, 0));
      else start();
    };
    const check = () => {
      if (painted && waiting.size === 0) once();
    };
    const shown = (image: Element) => {
      waiting.delete(image);
      check();
    };
    // Which pictures are on the first screen is asked of an IntersectionObserver (it reports with the first frame)
    // instead of measured here, which would lay the page out inside this script.
    const byReport = seesPictures && typeof IntersectionObserver === 'function';
    const byArrival = (image: HTMLImageElement) => {
      if (image.complete) return shown(image);
      image.addEventListener('load', () => shown(image), { once: true });
    };
    if (byReport) {
      firstScreen = new IntersectionObserver((entries) => {
        for (const entry of entries) {
          firstScreen?.unobserve(entry.target);
          if (!entry.isIntersecting && waiting.has(entry.target)) byArrival(entry.target as HTMLImageElement);
        }
      });
    }
    for (const image of document.querySelectorAll<HTMLImageElement>('img[fetchpriority="high"]')) {
      if (image.complete && (image.naturalWidth === 0 || !byReport)) continue;
      waiting.add(image);
      image.addEventListener('error', () => shown(image), { once: true });
      if (firstScreen && image.hasAttribute('elementtiming')) {
        firstScreen.observe(image);
      } else {
        afterFrame = true;
        byArrival(image);
      }
    }
    if (seesPaint || seesPictures) {
      observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          if (entry.name === 'first-contentful-paint') painted = true;
          const element = (entry as PerformanceEntry & { element?: Element | null }).element;
          if (element) waiting.delete(element);
        }
        check();
      });
      if (seesPaint) observer.observe({ type: 'paint', buffered: true });
      if (seesPictures) observer.observe({ type: 'element', buffered: true });
    }
    check();
    setTimeout(once, 3000);
  } else {
    start();
  }
}
