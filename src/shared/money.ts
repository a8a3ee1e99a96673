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

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** "$1,234.50" */
export function formatUsd(dollars: number): string {
  return usd.format(dollars);
}

/** True when a dollar amount has at most two decimals (no fractions of a cent). */
export function hasAtMostTwoDecimals(dollars: number): boolean {
  return Math.abs(dollars * 100 - Math.round(dollars * 100)) < 1e-6;
}
