import { afterAll, beforeAll } from 'vitest';
import { type StripeStandIn, startStripeStandIn } from './stripe-stand-in.ts';

export interface StripeStandInSuite {
  /** The running stand-in (available inside the tests, not while the file loads). */
  readonly standIn: StripeStandIn;
  /**
   * The settings that point the app at the stand-in. Filled in this file's top-level beforeAll, which runs before
   * the suites build their apps, so pass this object itself to `describeEachDatabase`.
   */
  readonly overrides: Record<string, string>;
}

/** A local Stripe stand-in for one test file: started before its suites, closed after them. */
export function stripeStandInForFile(keys: { webhookSecret: string; publishableKey: string }): StripeStandInSuite {
  let standIn: StripeStandIn | undefined;
  const overrides: Record<string, string> = {};
  beforeAll(async () => {
    standIn = await startStripeStandIn();
    Object.assign(overrides, {
      STRIPE_SECRET_KEY: standIn.secretKey,
      STRIPE_PUBLISHABLE_KEY: keys.publishableKey,
      STRIPE_WEBHOOK_SECRET: keys.webhookSecret,
      STRIPE_API_BASE: standIn.url,
    });
  });
  afterAll(async () => {
    await standIn?.close();
  });
  return {
    get standIn() {
      if (!standIn) throw new Error('The Stripe stand-in starts in beforeAll; use it inside the tests.');
      return standIn;
    },
    overrides,
  };
}
