import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocateCents,
  centsToDollars,
  dollarsToCents,
  formatUsd,
  hasAtMostTwoDecimals,
  percentOfCents,
  taxExclusive,
  taxIncluded,
} from './money.ts';

/** Amounts up to $100 million: far past any order, and cents × basis points then passes 2^53. */
const cents = fc.integer({ min: 0, max: 10_000_000_000 });
/** Rates up to 100 %; percentOfCents itself takes any rate. */
const rate = fc.integer({ min: 0, max: 10_000 });
/** Line amounts: large ones, and small ones that often share a remainder (where a tie-break matters). */
const weights = fc.oneof(
  fc.array(fc.integer({ min: 0, max: 5_000_000 }), { minLength: 1, maxLength: 12 }),
  fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 8 }),
);
const smallOrLargeCents = fc.oneof(fc.integer({ min: 0, max: 40 }), cents);

/** |exact − rounded| ≤ ½ cent, checked without division: |numerator − rounded × denominator| × 2 ≤ denominator. */
function withinHalfCent(rounded: number, numerator: bigint, denominator: bigint): boolean {
  const gap = numerator - BigInt(rounded) * denominator;
  return 2n * (gap < 0n ? -gap : gap) <= denominator;
}

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

  it('takes a percentage in basis points, rounding a half cent up', () => {
    expect(percentOfCents(5, 1_000)).toBe(1); // 0.5 cent
    expect(percentOfCents(15, 1_000)).toBe(2); // 1.5 cents: half up, where banker's rounding would give 2 too
    expect(percentOfCents(25, 1_000)).toBe(3); // 2.5 cents: half up gives 3, banker's rounding would give 2
    expect(percentOfCents(4, 1_000)).toBe(0); // 0.4 cent
    expect(percentOfCents(14, 1_000)).toBe(1); // 1.4 cents
    expect(percentOfCents(1999, 825)).toBe(165); // 8.25 % of $19.99 = 164.9175 cents
    expect(percentOfCents(9_007_199_254_740_991, 10_000)).toBe(9_007_199_254_740_991); // no float drift at 2^53 − 1
    fc.assert(
      fc.property(cents, rate, (amount, basisPoints) => {
        const result = percentOfCents(amount, basisPoints);
        expect(withinHalfCent(result, BigInt(amount) * BigInt(basisPoints), 10_000n)).toBe(true);
        expect(percentOfCents(amount, 10_000)).toBe(amount);
        expect(percentOfCents(amount, 0)).toBe(0);
      }),
    );
  });

  it('rounds tax on a tax-exclusive amount half up, per amount', () => {
    expect(taxExclusive(0, 825)).toBe(0);
    expect(taxExclusive(10, 500)).toBe(1); // 0.5 cent
    expect(taxExclusive(30, 500)).toBe(2); // 1.5 cents
    expect(taxExclusive(50, 500)).toBe(3); // 2.5 cents: half up, not to even
    expect(taxExclusive(8113, 600)).toBe(487); // 486.78 cents
    fc.assert(
      fc.property(cents, rate, (net, basisPoints) => {
        expect(taxExclusive(0, basisPoints)).toBe(0);
        expect(withinHalfCent(taxExclusive(net, basisPoints), BigInt(net) * BigInt(basisPoints), 10_000n)).toBe(true);
      }),
    );
  });

  it('finds the tax inside a tax-inclusive amount, so that net and tax add up to the gross', () => {
    expect(taxIncluded(0, 2_000)).toBe(0);
    expect(taxIncluded(12_000, 2_000)).toBe(2_000); // €120 at 20 %: €20 tax, €100 net
    expect(taxIncluded(3, 2_000)).toBe(1); // 0.5 cent of tax in 3 cents at 20 %
    expect(taxIncluded(2, 2_000)).toBe(0); // 0.33 cent
    fc.assert(
      fc.property(cents, rate, (gross, basisPoints) => {
        const tax = taxIncluded(gross, basisPoints);
        const net = gross - tax;
        const denominator = 10_000n + BigInt(basisPoints);
        expect(net + tax).toBe(gross);
        expect(net).toBeGreaterThanOrEqual(0);
        expect(withinHalfCent(tax, BigInt(gross) * BigInt(basisPoints), denominator)).toBe(true);
        expect(withinHalfCent(net, BigInt(gross) * 10_000n, denominator)).toBe(true);
        // Adding tax back to the net lands within a cent of the gross the customer saw.
        expect(Math.abs(taxExclusive(net, basisPoints) - tax)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('never lowers the tax or the percentage when the amount or the rate goes up', () => {
    fc.assert(
      fc.property(cents, cents, rate, rate, (a, b, r, s) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        const [lowRate, highRate] = r <= s ? [r, s] : [s, r];
        for (const f of [percentOfCents, taxExclusive, taxIncluded]) {
          expect(f(low, r)).toBeLessThanOrEqual(f(high, r));
          expect(f(a, lowRate)).toBeLessThanOrEqual(f(a, highRate));
        }
        expect(low - taxIncluded(low, r)).toBeLessThanOrEqual(high - taxIncluded(high, r));
      }),
    );
  });

  it('allocates an amount over lines so the shares add up exactly, each within a cent of its proportion', () => {
    expect(allocateCents(100, [1, 1, 1])).toEqual([34, 33, 33]); // equal remainders: the earlier line
    expect(allocateCents(100, [1, 2, 1])).toEqual([25, 50, 25]);
    expect(allocateCents(3, [1, 3, 2])).toEqual([0, 2, 1]); // 0.5 and 1.5 tie on remainder: the larger line
    expect(allocateCents(3, [2, 3, 1])).toEqual([1, 2, 0]);
    expect(allocateCents(1000, [333, 333, 334])).toEqual([333, 333, 334]);
    expect(allocateCents(0, [0, 0])).toEqual([0, 0]);
    expect(allocateCents(500, [0, 7])).toEqual([0, 500]);
    fc.assert(
      fc.property(smallOrLargeCents, weights, (amount, lineWeights) => {
        fc.pre(lineWeights.some((weight) => weight > 0));
        const shares = allocateCents(amount, lineWeights);
        const total = BigInt(lineWeights.reduce((sum, weight) => sum + weight, 0));
        expect(shares).toHaveLength(lineWeights.length);
        expect(shares.reduce((sum, share) => sum + share, 0)).toBe(amount);
        shares.forEach((share, index) => {
          expect(Number.isSafeInteger(share) && share >= 0).toBe(true);
          const exact = BigInt(amount) * BigInt(lineWeights[index] ?? 0);
          const gap = BigInt(share) * total - exact;
          expect(gap > -total && gap < total).toBe(true); // |share − exact share| < 1 cent
          if (lineWeights[index] === 0) expect(share).toBe(0);
        });
        // Largest remainder: no line left at its floor had a larger remainder than a line given a cent.
        const remainder = (index: number) => (BigInt(amount) * BigInt(lineWeights[index] ?? 0)) % total;
        const floor = (index: number) => Number((BigInt(amount) * BigInt(lineWeights[index] ?? 0)) / total);
        const given = shares.flatMap((share, index) => (share > floor(index) ? [remainder(index)] : []));
        const kept = shares.flatMap((share, index) => (share === floor(index) ? [remainder(index)] : []));
        for (const up of given) for (const down of kept) expect(up >= down).toBe(true);
      }),
    );
  });

  it('allocates the same share to a line wherever it stands among the others', () => {
    fc.assert(
      fc.property(
        smallOrLargeCents,
        weights.chain((lineWeights) =>
          fc.tuple(fc.constant(lineWeights), fc.shuffledSubarray(lineWeights, { minLength: lineWeights.length })),
        ),
        (amount, [lineWeights, shuffled]) => {
          fc.pre(lineWeights.some((weight) => weight > 0));
          // Lines of equal weight may swap a cent between them; as (weight, share) pairs, nothing may change.
          const pairs = (list: number[]) =>
            allocateCents(amount, list)
              .map((share, index) => `${list[index]}:${share}`)
              .sort();
          expect(pairs(shuffled)).toEqual(pairs(lineWeights));
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('refuses amounts, rates and weights that are not non-negative safe integers', () => {
    for (const bad of [-1, 0.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => percentOfCents(bad, 100), String(bad)).toThrow(RangeError);
      expect(() => percentOfCents(100, bad), String(bad)).toThrow(RangeError);
      expect(() => taxExclusive(bad, 100), String(bad)).toThrow(RangeError);
      expect(() => taxIncluded(100, bad), String(bad)).toThrow(RangeError);
      expect(() => allocateCents(bad, [1]), String(bad)).toThrow(RangeError);
      expect(() => allocateCents(100, [1, bad]), String(bad)).toThrow(RangeError);
    }
    expect(() => allocateCents(1, [])).toThrow(RangeError);
    expect(() => allocateCents(1, [0, 0])).toThrow(RangeError);
    expect(() => percentOfCents(Number.MAX_SAFE_INTEGER, 20_000)).toThrow(RangeError); // the result passes 2^53
  });
});
