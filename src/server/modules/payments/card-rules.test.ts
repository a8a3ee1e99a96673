import { describe, expect, it } from 'vitest';
import { chargeOutcome, checkCardDetails, passesLuhn } from './card-rules.ts';

describe('card rules of the test gateway', () => {
  it('applies the Luhn check', () => {
    expect(passesLuhn('4242424242424242')).toBe(true);
    expect(passesLuhn('4000000000000002')).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
    expect(passesLuhn('378282246310005')).toBe(true);
  });

  it('refuses an expiry in the past but accepts this month', () => {
    const now = new Date(Date.UTC(2030, 5, 15));
    const base = { number: '4242424242424242', cvc: '123' };
    expect(checkCardDetails({ ...base, expMonth: 6, expYear: 2030 }, now).ok).toBe(true);
    expect(checkCardDetails({ ...base, expMonth: 5, expYear: 2030 }, now)).toMatchObject({ ok: false });
    expect(checkCardDetails({ ...base, expMonth: 1, expYear: 31 }, now).ok).toBe(true);
  });

  it('wants four CVC digits for Amex and three for others', () => {
    const expiry = { expMonth: 12, expYear: new Date().getUTCFullYear() + 2 };
    expect(checkCardDetails({ number: '378282246310005', cvc: '1234', ...expiry }).ok).toBe(true);
    expect(checkCardDetails({ number: '378282246310005', cvc: '123', ...expiry }).ok).toBe(false);
    expect(checkCardDetails({ number: '4242424242424242', cvc: '1234', ...expiry }).ok).toBe(false);
  });

  it('answers the documented test cards as Stripe does, and refuses real cards in test mode', () => {
    expect(chargeOutcome('4242 4242 4242 4242')).toEqual({ outcome: 'succeeded' });
    expect(chargeOutcome('4000000000000002')).toMatchObject({
      outcome: 'declined',
      message: 'Your card was declined.',
    });
    expect(chargeOutcome('4000-0000-0000-9995')).toMatchObject({ message: 'Your card has insufficient funds.' });
    expect(chargeOutcome('4111111111111111')).toMatchObject({
      outcome: 'declined',
      declineCode: 'test_mode_live_card',
    });
  });
});
