/**
 * Attributes of a page's main picture (the home page's hero, a part's photo, the first cards' photos): asked for
 * first (`fetchpriority="high"`), and reported by the browser when it is on the screen (Element Timing), which is when
 * the boot script (boot.ts, ADR 021) starts the app's scripts. Spread onto the `<img>` (React has no type for
 * `elementtiming`, and passes it through as written).
 */
export const mainPicture = { fetchPriority: 'high', elementtiming: 'main-picture' } as const;
