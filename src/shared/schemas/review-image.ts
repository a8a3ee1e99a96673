/**
 * Which pictures a review may show: only ones the shop serves itself (its own images and uploaded photos), never a
 * link to another site, whose server would learn the address of every visitor of the home page. Plain code, no zod:
 * the review card on the home page checks with it too, and must not pull a schema library into that page.
 */
const SHOP_IMAGE_PATH = /^\/images\/[a-z0-9/_.-]+\.(svg|png|jpe?g|webp|avif)$/i;
const UPLOADED_PHOTO_PATH = /^\/uploads\/parts\/[a-f0-9]+-\d+\.webp$/;

export function isShopImagePath(value: string): boolean {
  return SHOP_IMAGE_PATH.test(value) || UPLOADED_PHOTO_PATH.test(value);
}

/** What a review shows instead of a picture it may not show (an older review's link to another site). */
export const REVIEW_FALLBACK_IMAGE = '/images/avatars/avatar-6.svg';

/** The shop's avatars, offered on the Add Review form. */
export const REVIEW_AVATARS = [1, 2, 3, 4, 5, 6].map((n) => `/images/avatars/avatar-${n}.svg`);
