import type { OrderRefusal } from '../../../shared/order-rules.ts';
import { type AppError, BusinessRuleError, InvalidError } from '../../errors.ts';

/** The API's code for each refusal of the order rule (the rule itself, and its messages, are in order-rules.ts). */
export const refusalCodes: Record<Exclude<OrderRefusal['reason'], 'not_whole'>, string> = {
  below_minimum: 'below_minimum_order',
  too_large: 'order_too_large',
  stock_out: 'stock_out',
};

/** A refusal's code, message and facts (the real minimum, the stock, the largest total), as one detail entry. */
export function refusalDetail(refusal: OrderRefusal, path: string): Record<string, unknown> {
  const { reason, message, ...facts } = refusal;
  const code = reason === 'not_whole' ? 'invalid_data' : refusalCodes[reason];
  return { path, code, message, ...facts };
}

/** A refusal as the API answers it; its facts are the details. Shared by placing an order, the cart and checkout. */
export function refusalError(refusal: OrderRefusal & { ok?: false }, path = 'body.quantity'): AppError {
  // The body schemas already insist on a whole number of at least 1; kept so every refusal has an answer.
  if (refusal.reason === 'not_whole') return new InvalidError(refusal.message, [{ path }]);
  const { ok: _ok, reason, message, ...facts } = refusal;
  return new BusinessRuleError(refusalCodes[reason], message, [{ path, ...facts }]);
}
