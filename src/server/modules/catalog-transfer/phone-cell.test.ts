import { describe, expect, it } from 'vitest';
import { phoneCell } from './phone-cell.ts';

/** What a spreadsheet runs as a formula (OWASP "CSV injection"): a cell starting with one of these. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A courier import's international number: E.164 digits, the plus left off (country code first). */
const E164 = /^[1-9]\d{6,14}$/;

describe('the orders export phone cell', () => {
  it.each([
    ['+44 7700 900123', '447700900123'],
    ['+44 (0)7700 900123', '447700900123'],
    ['0044 7700-900-123', '447700900123'],
    ['+1 (555) 010-0100', '15550100100'],
    ['+49 30 901820', '4930901820'],
  ])('writes %s with a country code as E.164 digits without the plus', (typed, cell) => {
    expect(phoneCell(typed)).toBe(cell);
    expect(cell).toMatch(E164);
    expect(cell).not.toMatch(FORMULA_START);
  });

  it('keeps a number without a country code as its digits, leading zero included', () => {
    expect(phoneCell('07700 900123')).toBe('07700900123');
    expect(phoneCell(' (020) 7946 0958 ')).toBe('02079460958');
  });

  it.each([
    '=HYPERLINK("http://x","y")',
    "+44 7700 900123=cmd|' /C calc'!A0",
    '-2+3',
    '@SUM(A1)',
    '\t+44',
    '+12',
    '++447700900123',
  ])('never writes %j so that a spreadsheet would run it', (typed) => {
    const cell = phoneCell(typed);
    expect(cell).not.toMatch(FORMULA_START);
    expect(cell.replace(/^'/, '')).toBe(typed.trim());
  });

  it('writes other free text as typed', () => {
    expect(phoneCell('call after 6pm')).toBe('call after 6pm');
    expect(phoneCell('')).toBe('');
  });
});
