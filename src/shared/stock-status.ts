/**
 * Honest stock on screen: what a part card and the purchase screen say about a part's stock, and
 * whether it can be ordered at all. One rule, here, so every card and the purchase screen agree.
 */
import type { OrderablePart } from './order-rules.ts';

/**
 * 'Only N Left' below this many minimum orders' worth of stock. Relative to the minimum order, not a fixed count of
 * PCS: a part sold in lots of 10 with 40 PCS left is four orders from empty and a buyer should hear it, while for a
 * part sold one at a time, 40 PCS is plenty. Ten minimum orders is 10 PCS for single items (the common threshold
 * of shops) and still warns for lots.
 */
export const LOW_STOCK_MINIMUM_ORDERS = 10;

export type StockLevel = 'inStock' | 'low' | 'out';

export interface StockStatus {
  level: StockLevel;
  /** 'In Stock', 'Only 7 Left' or 'Out Of Stock'. */
  label: string;
  /** Whether any quantity passes the order rule's stock and minimum checks: false disables Purchase and Place Order. */
  orderable: boolean;
}

export const stockLabels = {
  inStock: 'In Stock',
  out: 'Out Of Stock',
  low: (left: number) => `Only ${left} Left`,
} as const;

/**
 * Out of stock when not even the smallest order fits: no stock at all, or less than the minimum order (the order
 * rule refuses every quantity then, with 'Stock Out'). A count that is not a whole number of PCS is treated as none.
 */
export function stockStatus(part: Pick<OrderablePart, 'availableQuantity' | 'minimumOrder'>): StockStatus {
  const left = Number.isInteger(part.availableQuantity) ? Math.max(0, part.availableQuantity) : 0;
  const minimum = Number.isInteger(part.minimumOrder) ? Math.max(1, part.minimumOrder) : 1;
  if (left < minimum) return { level: 'out', label: stockLabels.out, orderable: false };
  if (left < minimum * LOW_STOCK_MINIMUM_ORDERS) return { level: 'low', label: stockLabels.low(left), orderable: true };
  return { level: 'inStock', label: stockLabels.inStock, orderable: true };
}
