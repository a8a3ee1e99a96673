import { checkoutPlacedMail, enqueueMail, type MailDocument, type OrderLinks, orderPlacedMail } from '../mail/ports.ts';
import { toMailOrder } from './order-mapper.ts';
import type { OrderRow } from './order-repository.ts';
import type { MailKick } from './orders-service.ts';
import type { PaymentReminderRepository } from './payment-reminder-repository.ts';

export interface PaymentReminderSettings {
  /** PAYMENT_REMINDER_DELAY_SECONDS: how long an order stays unpaid before its buyer is mailed how to pay. */
  delaySeconds: number;
  holdHours: number;
  links: OrderLinks;
}

/** Orders claimed per transaction; a run goes on until none is due. */
const BATCH = 100;

/**
 * How often the job looks for due orders: every minute, or twice per delay when that is shorter, so a reminder goes
 * out at most a minute (or half a delay) late.
 */
export function paymentReminderPeriodSeconds(delaySeconds: number): number {
  return Math.max(1, Math.min(60, Math.floor(delaySeconds / 2)));
}

/**
 * The "please pay" mail, written by the payment-reminder job rather than at placing: a buyer who pays at once gets
 * the receipt only, and one who does not gets what to pay and a link to pay, once, after
 * PAYMENT_REMINDER_DELAY_SECONDS. A checkout's orders get one mail with one link to pay for all those still unpaid.
 */
export class PaymentReminders {
  readonly #records: PaymentReminderRepository;
  readonly #mail: MailKick;
  readonly #settings: PaymentReminderSettings;

  constructor(deps: { records: PaymentReminderRepository; mail: MailKick; settings: PaymentReminderSettings }) {
    this.#records = deps.records;
    this.#mail = deps.mail;
    this.#settings = deps.settings;
  }

  /** One run of the job: mails every order unpaid for the delay and not yet reminded. Answers how many mails. */
  async remindDue(now = new Date()): Promise<number> {
    const placedBy = new Date(now.getTime() - this.#settings.delaySeconds * 1000);
    let mailed = 0;
    for (;;) {
      const written = await this.#records.transaction(async (tx) => {
        const claimed = await this.#records.claimDue(tx, placedBy, now, BATCH);
        const groups = groupByCheckout(claimed);
        for (const group of groups) await enqueueMail(tx, this.#mailFor(group));
        return { claimed: claimed.length, mails: groups.length };
      });
      mailed += written.mails;
      if (written.mails > 0) this.#mail.kick();
      if (written.claimed < BATCH) return mailed;
    }
  }

  #mailFor(group: readonly OrderRow[]): { kind: string; to: string; document: MailDocument } {
    const [first] = group;
    if (!first) throw new Error('a reminder without orders');
    const { links, holdHours } = this.#settings;
    const orders = group.map(toMailOrder);
    const document = first.checkoutId
      ? checkoutPlacedMail(
          { orders, buyerName: first.userName, payUrl: links.payAll(orders.map((order) => order.id)) },
          holdHours,
        )
      : orderPlacedMail(toMailOrder(first), links, holdHours);
    return { kind: 'order-placed', to: first.email, document };
  }
}

/**
 * One group per checkout, an order placed alone on its own. Oldest first; a checkout's orders in the order it placed
 * them (its cart's lines, in part-id order), as its answer listed them.
 */
function groupByCheckout(rows: readonly OrderRow[]): OrderRow[][] {
  const groups = new Map<string, OrderRow[]>();
  const sorted = [...rows].sort(
    (a, b) =>
      a.createdAt.getTime() - b.createdAt.getTime() || byText(a.partId ?? '', b.partId ?? '') || byText(a.id, b.id),
  );
  for (const row of sorted) {
    const key = row.checkoutId ?? row.id;
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return [...groups.values()];
}

/** Code-unit order, as PostgreSQL orders uuids (not the locale's). */
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
