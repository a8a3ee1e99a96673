import crypto from 'node:crypto';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { centsToDollars } from '../../../shared/money.ts';
import { checkOrderQuantity, stockOutRefusal } from '../../../shared/order-rules.ts';
import type { ShipTo } from '../../../shared/schemas/addresses.ts';
import type { CheckoutResponse } from '../../../shared/schemas/cart.ts';
import type { Order } from '../../../shared/schemas/orders.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { BusinessRuleError, ConflictError, ForbiddenError, NotFoundError } from '../../errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import type { AddressBookPort, Destination } from '../accounts/ports.ts';
import { clientAddressKey } from './client-address.ts';
import { holdRefusalError } from './hold-refusals.ts';
import { toWireOrder } from './order-mapper.ts';
import { refusalDetail } from './order-refusals.ts';
import type { CheckoutLineState, HoldLimits, HoldState, OrderRepository } from './order-repository.ts';

/** The cart as checkout sees it (a port the cart module fills, ADR 006). */
export interface CheckoutCartPort {
  /** The caller's lines, locked and removed until the transaction ends (a rollback puts them back), in part-id order. */
  takeLines(tx: Transaction, userId: string): Promise<{ partId: string; quantity: number }[]>;
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

/** Over a hold cap: the order rule allowed it, a cap on unpaid PCS of the part did not (undefined: none did). */
function holdRefusal(hold: HoldState, quantity: number): Record<string, unknown> | undefined {
  const error = holdRefusalError(hold, quantity);
  if (!error) return undefined;
  const [{ path: _path, ...facts } = {}] = (error.details ?? []) as Record<string, unknown>[];
  return { code: error.code, message: error.message, ...facts };
}

/**
 * Checkout (ADR 011): every line of the caller's cart becomes the spec's order, all in ONE transaction —
 * every line reserves its stock or none does — the cart is emptied and the address saved in that same transaction.
 * A refusal names every line that cannot be placed and why (the order rule's codes and messages), and changes
 * nothing: the cart stays as it was.
 */
export class CheckoutService {
  readonly #db: Database;
  readonly #orders: OrderRepository;
  readonly #cart: CheckoutCartPort;
  readonly #addresses: AddressBookPort;
  readonly #holdLimits: HoldLimits;
  readonly #addressSecret: string;

  constructor(deps: {
    db: Database;
    orders: OrderRepository;
    cart: CheckoutCartPort;
    addresses: AddressBookPort;
    holdLimits: HoldLimits;
    /** Keys the hash of the client address kept on each order (the app's secret). */
    addressSecret: string;
  }) {
    this.#db = deps.db;
    this.#orders = deps.orders;
    this.#cart = deps.cart;
    this.#addresses = deps.addresses;
    this.#holdLimits = deps.holdLimits;
    this.#addressSecret = deps.addressSecret;
  }

  /**
   * `db` is the idempotency key's transaction when the request carries one: the checkout then runs in it, so key,
   * orders and cart commit together (no savepoint: a refusal or failure rolls that whole transaction back, and the
   * key with it, which is what the key's plugin does for every refusal). `clientAddress` is the request's address
   * (the per-address hold cap; only its keyed hash is kept).
   */
  async checkout(
    user: SessionUser,
    shipTo: ShipTo,
    db: Database | Transaction = this.#db,
    clientAddress?: string,
  ): Promise<CheckoutResponse> {
    const destination = await this.#addresses.resolve(user.id, shipTo, db);
    const checkoutId = crypto.randomUUID();
    const placedFromKey = clientAddressKey(this.#addressSecret, clientAddress);
    const place = (tx: Transaction) => this.placeCheckout(tx, user, checkoutId, destination, placedFromKey);
    try {
      const orders = db instanceof PgTransaction ? await place(db) : await db.transaction(place);
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
   * THE one function that places a checkout's orders, inside the caller's transaction: take the cart's lines (locked
   * and removed), save the address, place every line (lock the parts in id order, then reserve the stock and write
   * the orders in one statement). No mail: the please-pay mail goes only for orders still unpaid later
   * (payment-reminders.ts), so a buyer who pays at once is not asked to pay.
   * Anything a placed checkout must also do belongs here, in this transaction. Throws CheckoutRefused (rolling
   * everything back, the cart included) when any line cannot be placed, naming every such line and why.
   *
   * Round trips: the cart, the address (one statement: upsert and prune), the parts' lock, the lines (one statement
   * for all of them).
   */
  async placeCheckout(
    tx: Transaction,
    user: SessionUser,
    checkoutId: string,
    destination: Destination,
    placedFromKey: string | null = null,
  ) {
    const lines = await this.#cart.takeLines(tx, user.id);
    if (lines.length === 0) {
      throw new BusinessRuleError('cart_empty', 'Your Cart Is Empty. Add A Part Before Checking Out.');
    }
    // Saved before the parts are locked, not after: the stock locks are then held for one round trip fewer (other
    // buyers of the same parts wait on them). A refusal below still rolls the address back with everything else.
    await this.#addresses.remember(tx, user.id, destination);
    const result = await this.#orders.placeAll(
      {
        checkoutId,
        userId: user.id,
        emailVerified: user.emailVerified,
        placedFromKey,
        email: user.email,
        userName: user.displayName,
        address: destination.address,
        phone: destination.phone,
        lines,
      },
      this.#holdLimits,
      tx,
    );
    if (!result.ok) throw new CheckoutRefused(lineRefusals(result.lines));
    return result.orders.map(toWireOrder);
  }
}

/**
 * Why each line the statement did not place was refused, in the order rule's words: no such part, the rule itself
 * (minimum, total, stock), a hold cap, or else stock other buyers took. Lines that passed are not named.
 */
function lineRefusals(lines: readonly CheckoutLineState[]): LineRefusal[] {
  const refused: LineRefusal[] = [];
  for (const [index, line] of lines.entries()) {
    const path = `lines.${index}`;
    const { part, partId, quantity } = line;
    if (!part) {
      refused.push({ path, partId, code: 'part_not_found', message: 'This part does not exist.' });
      continue;
    }
    const check = checkOrderQuantity(part, quantity);
    const held = holdRefusal(part.hold, quantity);
    if (!check.ok) {
      const { ok: _ok, ...refusal } = check;
      refused.push({ partId, ...refusalDetail(refusal, path) });
    } else if (held) {
      refused.push({ path, partId, ...held });
    } else if (!line.passed) {
      // The rule allows it against the part as read, the statement's guard did not: other buyers took the stock.
      refused.push({ partId, ...refusalDetail(stockOutRefusal(part.availableQuantity), path) });
    }
  }
  if (refused.length === 0) throw new Error('checkout refused without a refused line');
  return refused;
}
