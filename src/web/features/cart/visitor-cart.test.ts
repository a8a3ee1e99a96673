import { describe, expect, it } from 'vitest';
import { mergeBody, toCartLine, type VisitorCartLine } from './visitor-cart.ts';

const line = (partId: string, quantity: number, price = 12.5): VisitorCartLine => ({
  partId,
  name: `Part ${partId}`,
  img: '/images/parts/brake-disc.svg',
  price,
  minimumOrder: 1,
  availableQuantity: 10,
  quantity,
  addedAt: '2026-11-23T01:00:00.000Z',
});

describe("a visitor's cart", () => {
  it('joins the account with each part and its quantity, and nothing else', () => {
    expect(mergeBody([line('a', 2), line('b', 5)])).toEqual({
      lines: [
        { partId: 'a', quantity: 2 },
        { partId: 'b', quantity: 5 },
      ],
    });
    expect(mergeBody([])).toEqual({ lines: [] });
  });

  it('shows a line as the server would: the line total in whole cents, and the rule’s problem if any', () => {
    // 3 × $0.10 is $0.30, not 0.30000000000000004.
    expect(toCartLine(line('a', 3, 0.1), null)).toMatchObject({ lineTotal: 0.3, problem: null, quantity: 3 });
    expect(toCartLine(line('b', 11), 'Stock Out')).toMatchObject({ lineTotal: 137.5, problem: 'Stock Out' });
  });
});
