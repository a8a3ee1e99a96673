import { z } from 'zod';
import { orderDetailSchema, orderSchema } from '../../../shared/schemas/orders.ts';

/**
 * The orders API's answers as `orders-api.ts` checks them. Imported on demand (`lazySchemas`, ADR 018): the part page
 * places orders but should not build every order schema while it starts (it would lengthen the first task).
 */
export const orderAnswers = {
  order: orderSchema,
  orders: z.array(orderSchema),
  detail: orderDetailSchema,
};
