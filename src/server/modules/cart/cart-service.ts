import { centsToDollars } from '../../../shared/money.ts';
import { checkOrderQuantity } from '../../../shared/order-rules.ts';
import { type Cart, type CartLine, MAX_CART_LINES, type MergeCartBody } from '../../../shared/schemas/cart.ts';
import { isUuid } from '../../../shared/schemas/common.ts';
import { BusinessRuleError, NotFoundError } from '../../errors.ts';
import { refusalError } from '../orders/ports.ts';
import type { CartItemRow, CartRepository } from './cart-repository.ts';

/** A part as a cart line shows it and the order rule checks it. */
export interface CartPart {
  id: string;
  name: string;
  img: string;
  priceCents: number;
  minimumOrder: number;
  availableQuantity: number;
}

/** The catalogue as the cart sees it (a port the catalog module fills, ADR 006). */
export interface CartCatalogPort {
  orderableByIds(ids: readonly string[]): Promise<CartPart[]>;
}

const partNotFound = () => new NotFoundError('This part does not exist.');
const cartFull = () =>
  new BusinessRuleError('cart_full', `A Cart Holds At Most ${MAX_CART_LINES} Parts. Check Out Or Remove One First.`);

function toLine(item: CartItemRow, part: CartPart): CartLine {
  const check = checkOrderQuantity(part, item.quantity);
  return {
    partId: part.id,
    name: part.name,
    img: part.img,
    price: centsToDollars(part.priceCents),
    minimumOrder: part.minimumOrder,
    availableQuantity: part.availableQuantity,
    quantity: item.quantity,
    lineTotal: centsToDollars(part.priceCents * item.quantity),
    problem: check.ok ? null : check.message,
    addedAt: item.addedAt.toISOString(),
  };
}

/**
 * The signed-in customer's cart: one line per part, each quantity checked by the one order rule of
 * src/shared when it is set. The cart reserves nothing; stock is taken at checkout, so a line shows the live stock
 * and says when the part can no longer be ordered as it is.
 */
export class CartService {
  readonly #cart: CartRepository;
  readonly #catalog: CartCatalogPort;

  constructor(cart: CartRepository, catalog: CartCatalogPort) {
    this.#cart = cart;
    this.#catalog = catalog;
  }

  async get(userId: string): Promise<Cart> {
    const items = await this.#cart.list(userId);
    const parts = new Map((await this.#catalog.orderableByIds(items.map((item) => item.partId))).map((p) => [p.id, p]));
    const lines = items.flatMap((item) => {
      const part = parts.get(item.partId);
      return part ? [toLine(item, part)] : [];
    });
    const totalCents = lines.reduce((sum, line) => sum + Math.round(line.lineTotal * 100), 0);
    return { lines, total: centsToDollars(totalCents), count: lines.length };
  }

  /** Puts a part in the cart with this quantity (or changes it), if the order rule allows that quantity now. */
  async setItem(userId: string, partId: string, quantity: number): Promise<Cart> {
    const [part] = await this.#catalog.orderableByIds([partId]);
    if (!part) throw partNotFound();
    const check = checkOrderQuantity(part, quantity);
    if (!check.ok) throw refusalError(check);
    const items = await this.#cart.list(userId);
    if (items.length >= MAX_CART_LINES && !items.some((item) => item.partId === partId)) throw cartFull();
    await this.#cart.set(userId, partId, quantity);
    return this.get(userId);
  }

  /** A part that is not in the cart is 404, as any path id that names nothing (a second Remove says so too). */
  async removeItem(userId: string, partId: string): Promise<Cart> {
    if (!(await this.#cart.remove(userId, partId))) throw new NotFoundError('This part is not in your cart.');
    return this.get(userId);
  }

  /**
   * A visitor's cart joins the account's at sign-in or sign-up. A part in both gets the two quantities added when
   * the order rule allows it, else the visitor's latest choice, else it stays as the account had it; parts that
   * no longer exist, or quantities the rule refuses, are left out (the answer is the cart as it now is).
   */
  async merge(userId: string, body: MergeCartBody): Promise<Cart> {
    const wanted = body.lines.filter((line) => isUuid(line.partId));
    const parts = new Map((await this.#catalog.orderableByIds(wanted.map((l) => l.partId))).map((p) => [p.id, p]));
    const items = await this.#cart.list(userId);
    const current = new Map(items.map((item) => [item.partId, item.quantity]));
    for (const line of wanted) {
      const part = parts.get(line.partId);
      if (!part) continue;
      const existing = current.get(line.partId);
      if (existing === undefined && current.size >= MAX_CART_LINES) continue;
      const candidates = existing === undefined ? [line.quantity] : [existing + line.quantity, line.quantity];
      const quantity = candidates.find((q) => checkOrderQuantity(part, q).ok);
      if (quantity === undefined || quantity === existing) continue;
      await this.#cart.set(userId, line.partId, quantity);
      current.set(line.partId, quantity);
    }
    return this.get(userId);
  }
}
