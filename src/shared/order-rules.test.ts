import { describe, expect, it } from 'vitest';
import { belowMinimumMessage, toastMessages } from './messages.ts';
import {
  checkOrderQuantity,
  MAX_ORDER_TOTAL_CENTS,
  type OrderablePart,
  quantityRefusalText,
  stockOutRefusal,
  tooLargeMessage,
  wholeNumberMessage,
} from './order-rules.ts';

const part = (values: Partial<OrderablePart> = {}): OrderablePart => ({
  minimumOrder: 5,
  availableQuantity: 40,
  priceCents: 2550,
  ...values,
});

describe('the order rule', () => {
  it('allows a whole quantity from the minimum up to the stock, and gives the total in cents', () => {
    expect(checkOrderQuantity(part(), 5)).toEqual({ ok: true, totalCents: 12_750 });
    expect(checkOrderQuantity(part(), 6)).toEqual({ ok: true, totalCents: 15_300 });
    expect(checkOrderQuantity(part(), 39)).toEqual({ ok: true, totalCents: 99_450 });
    expect(checkOrderQuantity(part(), 40)).toEqual({ ok: true, totalCents: 102_000 });
  });

  it('refuses one below the minimum, naming the real minimum', () => {
    expect(checkOrderQuantity(part(), 4)).toEqual({
      ok: false,
      reason: 'below_minimum',
      message: 'Order At Least 5 PCS',
      minimumOrder: 5,
    });
    expect(checkOrderQuantity(part({ minimumOrder: 1 }), 1).ok).toBe(true);
    expect(checkOrderQuantity(part({ minimumOrder: 100 }), 99)).toMatchObject({
      reason: 'below_minimum',
      message: belowMinimumMessage(100),
      minimumOrder: 100,
    });
  });

  it('refuses one above the stock with Stock Out and the quantity there is', () => {
    expect(checkOrderQuantity(part(), 41)).toEqual({
      ok: false,
      reason: 'stock_out',
      message: 'Stock Out',
      availableQuantity: 40,
    });
    expect(checkOrderQuantity(part({ availableQuantity: 0, minimumOrder: 1 }), 1)).toMatchObject({
      reason: 'stock_out',
      availableQuantity: 0,
    });
  });

  it('asks for the minimum before the stock when less than the minimum is left', () => {
    // Four left of a part sold by five: asking for four is below the minimum, asking for five is more than the stock.
    const scarce = part({ availableQuantity: 4, minimumOrder: 5 });
    expect(checkOrderQuantity(scarce, 4)).toMatchObject({ reason: 'below_minimum' });
    expect(checkOrderQuantity(scarce, 5)).toMatchObject({ reason: 'stock_out', availableQuantity: 4 });
  });

  it('allows a total of exactly the largest charge and refuses one cent more', () => {
    const plenty = { availableQuantity: 1_000_000, minimumOrder: 1 };
    // 99,999,999 = 3 × 33,333,333: three at that price is exactly the cap.
    expect(checkOrderQuantity(part({ ...plenty, priceCents: 33_333_333 }), 3)).toEqual({
      ok: true,
      totalCents: MAX_ORDER_TOTAL_CENTS,
    });
    expect(checkOrderQuantity(part({ ...plenty, priceCents: MAX_ORDER_TOTAL_CENTS }), 1).ok).toBe(true);
    expect(checkOrderQuantity(part({ ...plenty, priceCents: MAX_ORDER_TOTAL_CENTS + 1 }), 1)).toEqual({
      ok: false,
      reason: 'too_large',
      message: 'One order can be at most $999,999.99. Please order fewer PCS.',
      maximumTotal: 999_999.99,
    });
    expect(checkOrderQuantity(part({ ...plenty, priceCents: 33_333_334 }), 3)).toMatchObject({ reason: 'too_large' });
    expect(tooLargeMessage()).toBe('One order can be at most $999,999.99. Please order fewer PCS.');
  });

  it('explains a total over the cap before the stock, so the person orders fewer rather than waits', () => {
    const dear = part({ priceCents: 100_000_000, availableQuantity: 10, minimumOrder: 1 });
    expect(checkOrderQuantity(dear, 50)).toMatchObject({ reason: 'too_large' });
  });

  it('names the stock, not the largest total, for a quantity far above a stock that could be ordered whole', () => {
    // 40 at $25.50 is $1,020; a million of them is over the cap too, but ordering the 40 there are is the fix.
    expect(checkOrderQuantity(part(), 1_000_000)).toEqual({
      ok: false,
      reason: 'stock_out',
      message: 'Stock Out',
      availableQuantity: 40,
    });
    expect(checkOrderQuantity(part({ availableQuantity: 0, minimumOrder: 1 }), 999_999)).toMatchObject({
      reason: 'stock_out',
    });
  });

  it('says how many there are in the cart’s words, and keeps the other refusals’ words', () => {
    const refusal = (quantity: number, values: Partial<OrderablePart> = {}) => {
      const check = checkOrderQuantity(part(values), quantity);
      if (check.ok) throw new Error('expected a refusal');
      return check;
    };
    expect(quantityRefusalText(refusal(1_000_000))).toBe('Only 40 PCS in stock');
    expect(quantityRefusalText(refusal(41))).toBe('Only 40 PCS in stock');
    expect(quantityRefusalText(refusal(1, { availableQuantity: 0, minimumOrder: 1 }))).toBe('Stock Out');
    expect(quantityRefusalText(refusal(4))).toBe(belowMinimumMessage(5));
    const dear = { priceCents: 100_000_000, availableQuantity: 10, minimumOrder: 1 };
    expect(quantityRefusalText(refusal(50, dear))).toBe(tooLargeMessage());
  });

  it.each([
    ['zero', 0],
    ['a negative quantity', -3],
    ['a fraction', 5.5],
    ['a fraction just above the minimum', 5.000_001],
    ['NaN', Number.NaN],
    ['infinity', Number.POSITIVE_INFINITY],
  ])('refuses %s as not a whole number, before any other check', (_label, quantity) => {
    expect(checkOrderQuantity(part(), quantity)).toEqual({
      ok: false,
      reason: 'not_whole',
      message: wholeNumberMessage,
    });
  });

  it('answers a refusal by stock the same way whether the rule or a race found it', () => {
    expect(stockOutRefusal(7)).toEqual({ reason: 'stock_out', message: toastMessages.stockOut, availableQuantity: 7 });
    const { ok: _ok, ...fromRule } = checkOrderQuantity(part({ availableQuantity: 7, minimumOrder: 1 }), 8);
    expect(fromRule).toEqual(stockOutRefusal(7));
  });
});
