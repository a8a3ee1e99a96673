import { describe, expect, it } from 'vitest';
import { centsToDollars, dollarsToCents, formatUsd, hasAtMostTwoDecimals } from './money.ts';

describe('money', () => {
  it('converts dollars to integer cents without float drift', () => {
    expect(dollarsToCents(260)).toBe(26000);
    expect(dollarsToCents(0.1 + 0.2)).toBe(30);
    expect(dollarsToCents(19.99)).toBe(1999);
    expect(centsToDollars(1999)).toBe(19.99);
  });

  it('formats US dollars as the spec shows them', () => {
    expect(formatUsd(260)).toBe('$260.00');
    expect(formatUsd(1234.5)).toBe('$1,234.50');
  });

  it('knows when an amount has fractions of a cent', () => {
    expect(hasAtMostTwoDecimals(12.34)).toBe(true);
    expect(hasAtMostTwoDecimals(12)).toBe(true);
    expect(hasAtMostTwoDecimals(12.345)).toBe(false);
  });
});
