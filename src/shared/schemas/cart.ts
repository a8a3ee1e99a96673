import { z } from 'zod';
import { orderSchema } from './orders.ts';

const cartQuantitySchema = z
  .number({ error: 'Quantity Must Be A Whole Number' })
  .int('Quantity Must Be A Whole Number')
  .min(1, 'Quantity Must Be At Least 1')
  .max(1_000_000, 'Quantity Must Be At Most 1,000,000');

/** One line of the cart, with the part as it is now (its price, minimum and live stock). */
export const cartLineSchema = z.object({
  partId: z.string(),
  name: z.string(),
  img: z.string(),
  price: z.number().describe('Unit price in dollars, as the part costs now'),
  minimumOrder: z.number().int(),
  availableQuantity: z.number().int().describe('Live stock'),
  quantity: z.number().int(),
  lineTotal: z.number().describe('Dollars: price x quantity'),
  /** Why this line cannot be ordered as it is now (stock fell, minimum rose), in the order rule's words; else null. */
  problem: z.string().nullable(),
  addedAt: z.string(),
});
export type CartLine = z.infer<typeof cartLineSchema>;

export const cartSchema = z.object({
  lines: z.array(cartLineSchema),
  total: z.number().describe('Dollars: the sum of the line totals'),
  count: z.number().int().describe('How many lines (parts) the cart holds'),
});
export type Cart = z.infer<typeof cartSchema>;

/** The most parts one cart holds: a cart is a shopping trip, not a catalogue. */
export const MAX_CART_LINES = 50;

export const cartItemParamsSchema = z.strictObject({
  partId: z.guid({ error: 'Provide A Valid Id' }),
});

export const setCartItemBodySchema = z.strictObject({ quantity: cartQuantitySchema });
export type SetCartItemBody = z.infer<typeof setCartItemBodySchema>;

/** A visitor's cart (kept in the browser) joining the account's at sign-in or sign-up. */
export const mergeCartBodySchema = z.strictObject({
  lines: z
    .array(z.strictObject({ partId: z.string().min(1).max(64), quantity: cartQuantitySchema }))
    .max(MAX_CART_LINES, `A Cart Holds At Most ${MAX_CART_LINES} Parts`),
});
export type MergeCartBody = z.infer<typeof mergeCartBodySchema>;

/** What checkout placed: one order per cart line, all with the same checkout id. */
export const checkoutResponseSchema = z.object({
  checkoutId: z.string(),
  orders: z.array(orderSchema),
  total: z.number().describe('Dollars: the sum of the orders'),
});
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;

/** `POST /api/checkout`: where every order of the cart ships (a new address and phone, or a saved one). */
export { shipToSchema as checkoutBodySchema } from './addresses.ts';
