import crypto from 'node:crypto';
import { centsToDollars } from '../../../shared/money.ts';
import { checkOrderQuantity, stockOutRefusal } from '../../../shared/order-rules.ts';
import type { ShipTo } from '../../../shared/schemas/addresses.ts';
import type { CheckoutResponse } from '../../../shared/schemas/cart.ts';
import type { Order } from '../../../shared/schemas/orders.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { BusinessRuleError, ConflictError, ForbiddenError, NotFoundError } from '../../errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import type { AddressBookPort, Destination } from '../accounts/address-book.ts';
import type { MailContent } from '../mail/mail-layout.ts';
import { enqueueMail } from '../mail/mail-outbox.ts';
import { checkoutPlacedMail, type MailOrder, type OrderLinks } from '../mail/order-mails.ts';
import { toMailOrder, toWireOrder } from './order-mapper.ts';
import { refusalDetail } from './order-refusals.ts';
import type { HoldLimit, HoldState, OrderRepository, OrderRow } from './order-repository.ts';
import { holdLimitError } from './orders-service.ts';

/** What the checkout needs to mail what it placed (slice B's order mails). */
export interface CheckoutMail {
  links: OrderLinks;
  holdHours: number;
  kick(): void;
  /** A part's name and price as they are now, read in the checkout's transaction (the catalogue's port). */
  describe(partId: string, tx: Transaction): Promise<{ name: string; priceCents: number } | undefined>;
}

/** The cart as checkout sees it (a port the cart module fills, ADR 006): its lines, locked, and emptied. */
export interface CheckoutCartPort {
  /** The caller's lines, locked until the transaction ends, in part-id order. */
  lockLines(tx: Transaction, userId: string): Promise<{ partId: string; quantity: number }[]>;
  clear(tx: Transaction, userId: string): Promise<void>;
}

/** Why one cart line could not be placed, in the order rule's words (the API's `details` entry for that line). */
type LineRefusal = Record<string, unknown> & { partId: string };

class CheckoutRefused extends Error {
  readonly lines: LineRefusal[];
  constructor(lines: LineRefusal[]) {
    super('checkout refused');
    this.lines = lines;
  }
}

/** Over the hold limit (issue 12): the order rule allowed it, the customer's unpaid PCS of the part did not. */
function holdRefusal(hold: HoldState, quantity: number): Record<string, unknown> {
  const error = holdLimitError(hold, quantity);
  const [{ path: _path, ...facts } = {}] = (error.details ?? []) as Record<string, unknown>[];
  return { code: error.code, message: error.message, ...facts };
}

/**
 * Checkout (issue 12, ADR 011): every line of the caller's cart becomes the spec's order, all in ONE transaction —
 * every line reserves its stock or none does — the cart is emptied and the address saved in that same transaction.
 * A refusal names every line that cannot be placed and why (the order rule's codes and messages), and changes
 * nothing: the cart stays as it was.
 */
export class CheckoutService {
  readonly #db: Database;
  readonly #orders: OrderRepository;
  readonly #cart: CheckoutCartPort;
  readonly #addresses: AddressBookPort;
  readonly #holdLimit: HoldLimit;
  readonly #mail: CheckoutMail | undefined;

  constructor(deps: {
    db: Database;
    orders: OrderRepository;
    cart: CheckoutCartPort;
    addresses: AddressBookPort;
    holdLimit: HoldLimit;
    /** Issue 12 (slice B): the checkout's order-placed mail. */
    mail?: CheckoutMail;
  }) {
    this.#mail = deps.mail;
    this.#db = deps.db;
    this.#orders = deps.orders;
    this.#cart = deps.cart;
    this.#addresses = deps.addresses;
    this.#holdLimit = deps.holdLimit;
  }

  /**
   * `db` is the idempotency key's transaction when the request carries one (the checkout then runs in a savepoint
   * of it, so key, orders and cart commit together).
   */
  async checkout(user: SessionUser, shipTo: ShipTo, db: Database | Transaction = this.#db): Promise<CheckoutResponse> {
    const destination = await this.#addresses.resolve(user.id, shipTo, db);
    const checkoutId = crypto.randomUUID();
    try {
      const orders = await db.transaction((tx) => this.placeCheckout(tx, user, checkoutId, destination));
      this.#mail?.kick();
      const totalCents = orders.reduce((sum, order) => sum + Math.round(order.total * 100), 0);
      return { checkoutId, orders, total: centsToDollars(totalCents) };
    } catch (error) {
      if (!(error instanceof CheckoutRefused)) throw error;
      throw new BusinessRuleError(
        'checkout_refused',
        'Some Parts In Your Cart Cannot Be Ordered As They Are. Nothing Was Ordered.',
        error.lines,
      );
    }
  }

  /**
   * Gives one of the caller's unpaid orders its shipping address (the payment page asks for it before the card when
   * the order was placed without one), saving it to the address book in the same transaction.
   */
  async setShippingAddress(user: SessionUser, orderId: string, shipTo: ShipTo): Promise<Order> {
    const destination = await this.#addresses.resolve(user.id, shipTo);
    return this.#db.transaction(async (tx) => {
      const order = await this.#orders.lock(tx, orderId);
      if (!order || (order.userId !== user.id && !user.isAdmin)) throw new NotFoundError('This order does not exist.');
      if (order.userId !== user.id) throw new ForbiddenError("Only the buyer can set an order's shipping address.");
      const updated = await this.#orders.setShippingAddress(tx, orderId, destination);
      if (!updated) {
        throw new ConflictError('Only an unpaid order’s shipping address can be changed.', 'order_not_unpaid');
      }
      await this.#addresses.remember(tx, user.id, destination);
      return toWireOrder(updated);
    });
  }

  /**
   * THE one function that places a checkout's orders, inside the caller's transaction: lock the cart, place every
   * line (reserving its stock), save the address, empty the cart. Anything a placed checkout must also do (its
   * mail, through the outbox) belongs here, in this transaction. Throws CheckoutRefused (rolling everything back)
   * when any line cannot be placed, after trying every line so that each refusal is named.
   */
  async placeCheckout(tx: Transaction, user: SessionUser, checkoutId: string, destination: Destination) {
    const lines = await this.#cart.lockLines(tx, user.id);
    if (lines.length === 0) {
      throw new BusinessRuleError('cart_empty', 'Your Cart Is Empty. Add A Part Before Checking Out.');
    }
    const placed: Order[] = [];
    const placedRows: OrderRow[] = [];
    const refused: LineRefusal[] = [];
    // Ids made here so the mail can name and link the orders before they exist: it is rendered BEFORE the lines
    // take their parts' row locks (a render takes milliseconds; holding a hot part's lock that long queues every
    // other buyer of it), from the parts as they are now.
    const ids = lines.map(() => crypto.randomUUID());
    const preview = await this.#previewMail(tx, user, lines, ids, destination);
    // Lines come in part-id order: two checkouts sharing parts lock them in the same order and never deadlock.
    for (const [index, line] of lines.entries()) {
      const result = await this.#orders.place(
        {
          id: ids[index],
          partId: line.partId,
          userId: user.id,
          quantity: line.quantity,
          email: user.email,
          userName: user.displayName,
          address: destination.address,
          phone: destination.phone,
          checkoutId,
        },
        this.#holdLimit,
        tx,
      );
      if (result.ok) {
        placed.push(toWireOrder(result.order));
        placedRows.push(result.order);
        continue;
      }
      const path = `lines.${index}`;
      if (!result.part) {
        refused.push({ path, partId: line.partId, code: 'part_not_found', message: 'This part does not exist.' });
        continue;
      }
      const check = checkOrderQuantity(result.part, line.quantity);
      const { hold } = result.part;
      if (!check.ok) {
        const { ok: _ok, ...refusal } = check;
        refused.push({ partId: line.partId, ...refusalDetail(refusal, path) });
      } else if (hold.limit !== null && hold.held + line.quantity > hold.limit) {
        refused.push({ path, partId: line.partId, ...holdRefusal(hold, line.quantity) });
      } else {
        // The rule allowed it against the part as read, the statement did not: other buyers took the stock.
        refused.push({ partId: line.partId, ...refusalDetail(stockOutRefusal(result.part.availableQuantity), path) });
      }
    }
    if (refused.length > 0) throw new CheckoutRefused(refused);
    await this.#addresses.remember(tx, user.id, destination);
    await this.#cart.clear(tx, user.id);
    if (this.#mail && placedRows.length > 0) {
      const orders = placedRows.map(toMailOrder);
      // A part renamed or repriced between the preview and its line: the mail says what was really ordered.
      const same = preview && JSON.stringify(preview.orders) === JSON.stringify(orders);
      const mail = same ? preview.mail : await this.#render(user, orders);
      await enqueueMail(tx, { kind: 'order-placed', to: user.email, ...mail });
    }
    return placed;
  }

  async #previewMail(
    tx: Transaction,
    user: SessionUser,
    lines: readonly { partId: string; quantity: number }[],
    ids: readonly string[],
    destination: Destination,
  ): Promise<{ orders: MailOrder[]; mail: MailContent } | undefined> {
    if (!this.#mail) return undefined;
    const orders: MailOrder[] = [];
    for (const [index, line] of lines.entries()) {
      const part = await this.#mail.describe(line.partId, tx);
      if (!part) return undefined;
      orders.push({
        id: ids[index] ?? '',
        partName: part.name,
        quantity: line.quantity,
        unitPriceCents: part.priceCents,
        totalCents: part.priceCents * line.quantity,
        buyerName: user.displayName,
        buyerEmail: user.email,
        address: destination.address,
        phone: destination.phone,
      });
    }
    return { orders, mail: await this.#render(user, orders) };
  }

  #render(user: SessionUser, orders: MailOrder[]): Promise<MailContent> {
    const mail = this.#mail as CheckoutMail;
    return checkoutPlacedMail(
      { orders, buyerName: user.displayName, payUrl: mail.links.payAll(orders.map((order) => order.id)) },
      mail.holdHours,
    );
  }
}
