import { neutralize } from './product-csv.ts';

/** Only what people type in a phone number: digits, a leading plus, spaces and the usual separators. */
const PHONE_TEXT = /^\+?[\d\s().\-/]+$/;
/** E.164: a country code and the number, at most 15 digits, never starting with 0. */
const E164_DIGITS = /^[1-9]\d{6,14}$/;
/** A number written without a country code (national form): the digits as dialled in the country. */
const NATIONAL_DIGITS = /^\d{6,15}$/;

/**
 * The orders export's phone cell (ADR 028). A number with a country code (`+44 7700 900123`, `0044 7700 900123`,
 * `+44 (0)7700 900123`) is written as its E.164 digits without the plus (`447700900123`); one without a country
 * code keeps its digits as dialled (`07700900123`). Either cell starts with a digit, so no spreadsheet reads it as a
 * formula, and courier imports take it as a phone number, which the apostrophe of the formula guard broke. Anything
 * else a customer typed (the field is free text) is written as typed, with the formula guard.
 */
export function phoneCell(phone: string): string {
  const typed = phone.trim();
  if (!PHONE_TEXT.test(typed)) return neutralize(typed);
  const international = typed.startsWith('+') || /^00[1-9]/.test(typed);
  // "+44 (0)7700 900123": the (0) is the trunk prefix dialled inside the country only, never after a country code.
  const written = international ? typed.replace(/\(\s*0\s*\)/, '') : typed;
  const digits = written.replace(/\D/g, '');
  if (international) {
    const e164 = typed.startsWith('+') ? digits : digits.slice(2);
    if (E164_DIGITS.test(e164)) return e164;
  } else if (NATIONAL_DIGITS.test(digits)) {
    return digits;
  }
  return neutralize(typed);
}
