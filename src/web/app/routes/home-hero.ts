/**
 * The home page's banner art, its Largest Contentful Paint. The router asks for it as soon as the home route starts
 * loading, so it downloads beside the page's chunk instead of after it; a module of its own keeps the router's
 * chunk free of the rest of the home page's content.
 */
export const HOME_HERO_IMAGE = '/images/home/hero-banner.svg';
