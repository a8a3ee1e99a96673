/**
 * Attributes of a page's main picture (the home page's hero, a part's photo, the first cards' photos): asked for
 * first (`fetchpriority="high"`), ahead of the app's scripts, as it is usually the page's largest paint.
 */
export const mainPicture = { fetchPriority: 'high' } as const;
