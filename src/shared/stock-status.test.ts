import { describe, expect, it } from 'vitest';
import { checkOrderQuantity } from './order-rules.ts';
import { LOW_STOCK_MINIMUM_ORDERS, stockStatus } from './stock-status.ts';

describe('the stock status of a part', () => {
  it.each([
    // [available, minimum order, level, label]
    [0, 1, 'out', 'Out Of Stock'],
    [1, 1, 'low', 'Only 1 Left'],
    [9, 1, 'low', 'Only 9 Left'],
    [10, 1, 'inStock', 'In Stock'],
    [340, 2, 'inStock', 'In Stock'],
    // Sold in lots of 10: 40 PCS is four orders from empty.
    [40, 10, 'low', 'Only 40 Left'],
    [99, 10, 'low', 'Only 99 Left'],
    [100, 10, 'inStock', 'In Stock'],
    // Fewer PCS than the minimum order: nothing can be ordered, so it is out of stock for a buyer.
    [9, 10, 'out', 'Out Of Stock'],
    [10, 10, 'low', 'Only 10 Left'],
  ] as const)('%i left, minimum %i: %s (%s)', (availableQuantity, minimumOrder, level, label) => {
    expect(stockStatus({ availableQuantity, minimumOrder })).toEqual({ level, label, orderable: level !== 'out' });
  });

  it('puts the low threshold at ten minimum orders', () => {
    expect(LOW_STOCK_MINIMUM_ORDERS).toBe(10);
    expect(stockStatus({ availableQuantity: 5 * LOW_STOCK_MINIMUM_ORDERS - 1, minimumOrder: 5 }).level).toBe('low');
    expect(stockStatus({ availableQuantity: 5 * LOW_STOCK_MINIMUM_ORDERS, minimumOrder: 5 }).level).toBe('inStock');
  });

  it('treats impossible counts as none, and a minimum below one as one', () => {
    expect(stockStatus({ availableQuantity: -3, minimumOrder: 1 }).level).toBe('out');
    expect(stockStatus({ availableQuantity: Number.NaN, minimumOrder: 1 }).level).toBe('out');
    expect(stockStatus({ availableQuantity: 2.5, minimumOrder: 1 }).level).toBe('out');
    expect(stockStatus({ availableQuantity: 0, minimumOrder: 0 }).level).toBe('out');
    expect(stockStatus({ availableQuantity: 3, minimumOrder: 0 })).toMatchObject({ level: 'low', orderable: true });
  });

  it('agrees with the order rule: orderable exactly when the minimum order passes its stock check', () => {
    for (let availableQuantity = 0; availableQuantity <= 30; availableQuantity++) {
      for (let minimumOrder = 1; minimumOrder <= 12; minimumOrder++) {
        const part = { availableQuantity, minimumOrder, priceCents: 100 };
        expect(stockStatus(part).orderable, JSON.stringify(part)).toBe(checkOrderQuantity(part, minimumOrder).ok);
      }
    }
  });
});
