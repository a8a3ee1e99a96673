/**
 * Money is held as integer cents everywhere except on the wire, where the spec shows dollars (`price: 260`).
 * Converting only at the edges keeps sums exact: 0.1 + 0.2 never leaks into a total.
 */
export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}

export function centsToDollars(cents: number): number {
  return cents / 100;
}

/**
 * "$1,234.50", "-$5.00": what `Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })` writes (a test
 * compares the two), without it. Constructing that formatter loads ICU's currency data, a long pause on a slow
 * phone in the task that hydrates a page (it counts toward Total Blocking Time). Like Intl, it
 * rounds the number's shortest decimal form (0.015 is "0.015", so $0.02) half away from zero.
 */
export function formatUsd(dollars: number): string {
  const decimal = String(Math.abs(dollars));
  // Exponent forms (below 1e-6, from 1e21) and amounts whose cents would pass 2^53: no price comes near; Intl answers.
  if (!/^\d+(\.\d+)?$/.test(decimal) || Math.abs(dollars) >= 1e13) return usdFormat().format(dollars);
  const [whole = '0', fraction = ''] = decimal.split('.');
  const roundUp = (fraction[2] ?? '0') >= '5' ? 1 : 0;
  const cents = Number(whole) * 100 + Number(fraction.slice(0, 2).padEnd(2, '0')) + roundUp;
  const sign = dollars < 0 || Object.is(dollars, -0) ? '-' : '';
  const dollarsPart = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+$)/g, ',');
  return `${sign}$${dollarsPart}.${String(cents % 100).padStart(2, '0')}`;
}

let usd: Intl.NumberFormat | undefined;
function usdFormat(): Intl.NumberFormat {
  usd ??= new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
  return usd;
}

/** True when a dollar amount has at most two decimals (no fractions of a cent). */
export function hasAtMostTwoDecimals(dollars: number): boolean {
  return Math.abs(dollars * 100 - Math.round(dollars * 100)) < 1e-6;
}

/*
 * Integer-cent arithmetic for checkout amounts (discounts, tax, shares of a refund). The rounding rule is written
 * down in docs/decisions/031-money-rounding.md: every rounding to a cent is half up (a half cent or more rounds up;
 * amounts here are never negative, so half up and half away from zero agree), and tax is rounded per line.
 * Amounts, rates and weights are non-negative safe integers; anything else is a programming error, so it throws
 * RangeError rather than answering with a wrong amount. Products such as cents × basis points can pass 2^53, so the
 * arithmetic inside is BigInt and only the (checked) result comes back as a number.
 */

/** 10,000 basis points make 100 %: 825 bp is 8.25 %, so rates with two decimals of a percent stay integers. */
export const BASIS_POINTS_PER_WHOLE = 10_000;

const WHOLE = BigInt(BASIS_POINTS_PER_WHOLE);

function wholeNumber(name: string, value: number): bigint {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative safe integer, got ${value}`);
  }
  return BigInt(value);
}

function safeCents(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`${value} cents is past a safe integer`);
  return Number(value);
}

/** numerator / denominator rounded half up, for numerator ≥ 0 and denominator > 0: floor(n/d + 1/2). */
function divideRoundingHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}

/**
 * `basisPoints` of `cents`, rounded half up to a cent: 10 % (1,000 bp) of $0.05 is 1 cent (0.5 rounds up), of
 * $0.04 is 0 cents. Used for a percentage discount, computed once on the amount it applies to.
 */
export function percentOfCents(cents: number, basisPoints: number): number {
  const amount = wholeNumber('cents', cents);
  const rate = wholeNumber('basisPoints', basisPoints);
  return safeCents(divideRoundingHalfUp(amount * rate, WHOLE));
}

/**
 * The tax to add to a tax-exclusive (US-style) line amount: `netCents` × rate, rounded half up. A line's tax is
 * rounded on its own and an order's tax is the sum of its lines', so refunding a line refunds exactly its tax.
 */
export function taxExclusive(netCents: number, rateBasisPoints: number): number {
  return percentOfCents(netCents, rateBasisPoints);
}

/**
 * The tax contained in a tax-inclusive (EU-style) line amount: gross × rate / (1 + rate), rounded half up. The net
 * is `grossCents - taxIncluded(grossCents, rate)`, so net and tax always add up to the price the customer saw.
 */
export function taxIncluded(grossCents: number, rateBasisPoints: number): number {
  const gross = wholeNumber('grossCents', grossCents);
  const rate = wholeNumber('rateBasisPoints', rateBasisPoints);
  return safeCents(divideRoundingHalfUp(gross * rate, WHOLE + rate));
}

/**
 * Splits `cents` over lines in proportion to their `weights` (usually the lines' amounts) so that the shares add
 * up to exactly `cents`: each line gets its exact share rounded down, and the cents left over (fewer than the
 * lines) go one each to the lines with the largest remainders (largest-remainder method). Ties go to the larger
 * weight, then to the earlier line, so the result is deterministic and does not depend on the order of lines of
 * different weights. Every share is within one cent of its exact proportion. Spreads an order discount or a
 * refund over the lines it covers.
 *
 * Throws RangeError when there is something to split but nothing to split it by (no lines, or all weights 0).
 */
export function allocateCents(cents: number, weights: readonly number[]): number[] {
  const amount = wholeNumber('cents', cents);
  const parts = weights.map((weight, index) => wholeNumber(`weights[${index}]`, weight));
  const total = parts.reduce((sum, weight) => sum + weight, 0n);
  if (total === 0n) {
    if (amount === 0n) return parts.map(() => 0);
    throw new RangeError(`cannot allocate ${cents} cents over lines whose weights sum to 0`);
  }
  const lines = parts.map((weight, index) => ({
    index,
    weight,
    share: (amount * weight) / total,
    remainder: (amount * weight) % total,
  }));
  let leftover = amount - lines.reduce((sum, line) => sum + line.share, 0n);
  const byRemainder = [...lines].sort(
    (a, b) => descending(a.remainder, b.remainder) || descending(a.weight, b.weight) || a.index - b.index,
  );
  for (const line of byRemainder) {
    if (leftover === 0n) break;
    line.share += 1n;
    leftover -= 1n;
  }
  return lines.map((line) => safeCents(line.share));
}

function descending(a: bigint, b: bigint): number {
  return a === b ? 0 : a > b ? -1 : 1;
}
