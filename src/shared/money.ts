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
