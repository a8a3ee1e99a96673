import fc from 'fast-check';
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

  it('formats every amount as Intl.NumberFormat does, without constructing one', () => {
    const intl = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    for (const dollars of [0, -0, 0.005, 0.015, 1.005, -1.005, 999.995, 1000, 1234567.891, -42, 1e14, 1e16, -1e21]) {
      expect(formatUsd(dollars), String(dollars)).toBe(intl.format(dollars));
    }
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (cents) => {
        expect(formatUsd(cents / 100)).toBe(intl.format(cents / 100));
      }),
    );
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), (dollars) => {
        expect(formatUsd(dollars)).toBe(intl.format(dollars));
      }),
    );
  });

  it('knows when an amount has fractions of a cent', () => {
    expect(hasAtMostTwoDecimals(12.34)).toBe(true);
    expect(hasAtMostTwoDecimals(12)).toBe(true);
    expect(hasAtMostTwoDecimals(12.345)).toBe(false);
  });
});
