import { cartSchema } from '../../../shared/schemas/cart.ts';

/** The cart API's answer, imported on demand by `cart-api.ts` (`lazySchema`, ADR 018). */
export const cartAnswers = { cart: cartSchema };
