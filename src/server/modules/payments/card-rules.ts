/**
 * The card checks and test cards of the built-in gateway, modelled on Stripe's test mode
 * (https://docs.stripe.com/testing): the same card numbers give the same outcomes and messages.
 */

type CardCheck = { ok: true; last4: string } | { ok: false; code: string; message: string };

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let digit = Number(digits[i]);
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

/** Format checks Stripe makes before it ever contacts a bank: these create no charge. */
export function checkCardDetails(card: CardInput, now = new Date()): CardCheck {
  const digits = card.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits))
    return { ok: false, code: 'incomplete_number', message: 'Your card number is incomplete.' };
  if (!passesLuhn(digits)) return { ok: false, code: 'incorrect_number', message: 'Your card number is incorrect.' };
  if (!Number.isInteger(card.expMonth) || card.expMonth < 1 || card.expMonth > 12) {
    return { ok: false, code: 'invalid_expiry_month', message: "Your card's expiration month is invalid." };
  }
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  const thisYear = now.getUTCFullYear();
  const thisMonth = now.getUTCMonth() + 1;
  if (!Number.isInteger(year) || year < thisYear || year > thisYear + 50) {
    return { ok: false, code: 'invalid_expiry_year', message: "Your card's expiration year is invalid." };
  }
  if (year === thisYear && card.expMonth < thisMonth) {
    return { ok: false, code: 'invalid_expiry_month_past', message: "Your card's expiration date is in the past." };
  }
  const amex = /^3[47]/.test(digits);
  if (!(amex ? /^\d{4}$/ : /^\d{3}$/).test(card.cvc.trim())) {
    return { ok: false, code: 'invalid_cvc', message: "Your card's security code is invalid." };
  }
  return { ok: true, last4: digits.slice(-4) };
}

type ChargeOutcome =
  | { outcome: 'succeeded' }
  | { outcome: 'declined'; code: string; declineCode: string; message: string };

const declines: Record<string, { code: string; declineCode: string; message: string }> = {
  '4000000000000002': { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' },
  '4000000000009995': {
    code: 'card_declined',
    declineCode: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  '4000000000009987': { code: 'card_declined', declineCode: 'lost_card', message: 'Your card was declined.' },
  '4000000000009979': { code: 'card_declined', declineCode: 'stolen_card', message: 'Your card was declined.' },
  '4000000000000069': { code: 'expired_card', declineCode: 'expired_card', message: 'Your card has expired.' },
  '4000000000000127': {
    code: 'incorrect_cvc',
    declineCode: 'incorrect_cvc',
    message: "Your card's security code is incorrect.",
  },
  '4000000000000119': {
    code: 'processing_error',
    declineCode: 'processing_error',
    message: 'An error occurred while processing your card. Try again in a little bit.',
  },
};

/** Cards that succeed in Stripe's test mode (Visa, Visa debit, Mastercard, Amex, Discover). */
const successes = new Set([
  '4242424242424242',
  '4000056655665556',
  '5555555555554444',
  '378282246310005',
  '6011111111111117',
]);

/** What the "bank" says: documented test cards behave as documented; any real card is refused, as in test mode. */
export function chargeOutcome(cardNumber: string): ChargeOutcome {
  const digits = cardNumber.replace(/[\s-]/g, '');
  if (successes.has(digits)) return { outcome: 'succeeded' };
  const decline = declines[digits];
  if (decline) return { outcome: 'declined', ...decline };
  return {
    outcome: 'declined',
    code: 'card_declined',
    declineCode: 'test_mode_live_card',
    message:
      'Your card was declined. Your request was in test mode, but used a non test card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
  };
}
