import { z } from 'zod';
import { phoneNumberSchema } from './phone.ts';

/** A shipping address as the purchase form takes it; required (trimmed, not blank) where an order will ship to it. */
export const shippingAddressSchema = z
  .string()
  .trim()
  .min(1, 'Address Is Required')
  .max(300, 'Address Must Be 300 Characters Or Fewer');

/** A phone number where an order will ship: the rule of every phone number, and not empty. */
export const shippingPhoneSchema = phoneNumberSchema.min(1, 'Phone Number Is Required');

/** A saved entry of the caller's address book. */
export const savedAddressSchema = z.object({
  _id: z.string(),
  address: z.string(),
  phone: z.string(),
  lastUsedAt: z.string(),
});
export type SavedAddress = z.infer<typeof savedAddressSchema>;

/** `POST /api/addresses`: a new entry (the same address and phone again is the same entry). */
export const newAddressBodySchema = z.strictObject({
  address: shippingAddressSchema,
  phone: shippingPhoneSchema,
});
export type NewAddressBody = z.infer<typeof newAddressBodySchema>;

/**
 * Where an order ships: a new address and phone, or a saved entry by id. Checkout and the payment page's address
 * step both take it; a new one is saved to the address book.
 */
export const shipToSchema = z.union([
  newAddressBodySchema,
  z.strictObject({ addressId: z.guid({ error: 'Choose A Saved Address' }) }),
]);
export type ShipTo = z.infer<typeof shipToSchema>;
