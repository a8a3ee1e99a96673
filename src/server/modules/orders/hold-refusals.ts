import { type AppError, BusinessRuleError } from '../../errors.ts';
import type { HoldState } from './order-repository.ts';

/**
 * Why the hold caps refused an order, in words that say what to do, with the figures the placing statement found.
 * The statement decides (`holdVerdicts` in order-repository.ts); this only explains the first cap it names in
 * `hold.refused`. Undefined when no cap refused. Shared by placing one order and by checkout (per line).
 */
export function holdRefusalError(hold: HoldState, quantity: number): AppError | undefined {
  const path = 'body.quantity';
  switch (hold.refused[0]) {
    case undefined:
      return undefined;
    case 'unverified': {
      const limit = hold.unverifiedLimit ?? 0;
      return new BusinessRuleError(
        'verify_email_to_hold_more',
        `Verify Your Email To Hold More Than ${limit} Unpaid PCS Of A Part: Open The Link We Sent You, Or Use ` +
          `'Send The Link Again' At The Top Of The Page`,
        [{ path, unverifiedLimit: limit, held: hold.held, quantity, verifyEmail: true }],
      );
    }
    case 'customer':
      return holdLimitError(hold, quantity);
    case 'address': {
      const limit = hold.addressLimit ?? 0;
      const more = Math.max(0, limit - hold.addressHeld);
      return new BusinessRuleError(
        'address_hold_limit',
        more > 0
          ? `Orders From Your Network Already Hold ${hold.addressHeld} Unpaid PCS Of This Part: Pay For Them Or ` +
              `Order At Most ${more} More`
          : `Orders From Your Network Already Hold ${hold.addressHeld} Unpaid PCS Of This Part, The Most One ` +
              'Network May Hold: Pay For Them First',
        [{ path, addressHoldLimit: limit, addressHeld: hold.addressHeld, quantity }],
      );
    }
    case 'new_accounts': {
      const limit = hold.newAccountsLimit ?? 0;
      const more = Math.max(0, limit - hold.newAccountsHeld);
      return new BusinessRuleError(
        'new_account_hold_limit',
        more > 0
          ? `New Accounts Can Order At Most ${more} More PCS Of This Part Right Now: Order Fewer, Or Try Again Later`
          : 'New Accounts Cannot Order More Of This Part Right Now: Try Again Later, Or After Paying For An Order',
        [{ path, newAccountHoldLimit: limit, newAccountsHeld: hold.newAccountsHeld, quantity }],
      );
    }
  }
}

/** The per-customer hold limit's refusal: the customer holds too many unpaid PCS of this part. */
export function holdLimitError(hold: HoldState, quantity: number): AppError {
  const limit = hold.limit ?? 0;
  const more = Math.max(0, limit - hold.held);
  const message =
    hold.held > 0
      ? `You Already Hold ${hold.held} Unpaid PCS Of This Part: Pay For Them Or Order At Most ${more} More`
      : `You Can Hold At Most ${limit} Unpaid PCS Of This Part`;
  return new BusinessRuleError('hold_limit', message, [
    { path: 'body.quantity', holdLimit: limit, held: hold.held, quantity },
  ]);
}
