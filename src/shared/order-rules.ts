/**
 * The one order rule: what quantity of a part may be ordered. The purchase form checks it before sending, the
 * orders service uses it to explain a refusal, and the SQL statement that reserves stock enforces the same
 * conditions atomically (it is the guard; this is the explanation). Change a condition here and in that
 * statement together (`order-repository.ts`, `place`).
 */
import { belowMinimumMessage, toastMessages } from './messages.ts';
import { centsToDollars, formatUsd } from './money.ts';

/** Stripe's largest charge ($999,999.99), and well inside the integer column. */
export const MAX_ORDER_TOTAL_CENTS = 99_999_999;

export interface OrderablePart {
  minimumOrder: number;
  availableQuantity: number;
  priceCents: number;
}

export type OrderRefusal =
  | { reason: 'not_whole'; message: string }
  | { reason: 'below_minimum'; message: string; minimumOrder: number }
  | { reason: 'too_large'; message: string; maximumTotal: number }
  | { reason: 'stock_out'; message: string; availableQuantity: number };

export type OrderCheck = { ok: true; totalCents: number } | ({ ok: false } & OrderRefusal);

export const wholeNumberMessage = 'Quantity Must Be A Whole Number';

export function tooLargeMessage(): string {
  return `One order can be at most ${formatUsd(centsToDollars(MAX_ORDER_TOTAL_CENTS))}. Please order fewer PCS.`;
}

/**
 * Checks a quantity against a part. The order of the checks is the order a person fixes them in: a whole number,
 * at least the minimum, then the lower of the two ceilings: the stock, or the largest total. A quantity above the
 * stock is told about the stock (ordering what is there is the fix), unless even the whole stock costs more than
 * one order may, when ordering fewer is the fix either way.
 */
export function checkOrderQuantity(part: OrderablePart, quantity: number): OrderCheck {
  if (!Number.isInteger(quantity) || quantity < 1) {
    return { ok: false, reason: 'not_whole', message: wholeNumberMessage };
  }
  if (quantity < part.minimumOrder) {
    return {
      ok: false,
      reason: 'below_minimum',
      message: belowMinimumMessage(part.minimumOrder),
      minimumOrder: part.minimumOrder,
    };
  }
  const totalCents = part.priceCents * quantity;
  const aboveStock = quantity > part.availableQuantity;
  const stockTooDear = part.priceCents * part.availableQuantity > MAX_ORDER_TOTAL_CENTS;
  if (totalCents > MAX_ORDER_TOTAL_CENTS && (!aboveStock || stockTooDear)) {
    return {
      ok: false,
      reason: 'too_large',
      message: tooLargeMessage(),
      maximumTotal: centsToDollars(MAX_ORDER_TOTAL_CENTS),
    };
  }
  if (aboveStock) return { ok: false, ...stockOutRefusal(part.availableQuantity) };
  return { ok: true, totalCents };
}

/** Not enough stock: also the answer when other buyers took the stock while an order was being placed. */
export function stockOutRefusal(availableQuantity: number): Extract<OrderRefusal, { reason: 'stock_out' }> {
  return { reason: 'stock_out', message: toastMessages.stockOut, availableQuantity };
}

/**
 * A refusal in the words of a page that shows the stock beside the quantity (the cart): a quantity above the stock
 * says how many there are, where the purchase screen keeps the spec's 'Stock Out'.
 */
export function quantityRefusalText(refusal: OrderRefusal): string {
  if (refusal.reason !== 'stock_out') return refusal.message;
  return refusal.availableQuantity > 0 ? `Only ${refusal.availableQuantity} PCS in stock` : toastMessages.stockOut;
}
