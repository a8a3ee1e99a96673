import type { CartLine, MergeCartBody } from '../../../shared/schemas/cart.ts';
import type { CartPartSnapshot } from '../../lib/cart-context.tsx';
import { localStore } from '../../lib/local-store.ts';

/**
 * A visitor's cart, kept in this browser (localStorage) until they sign in, when it joins the account's cart
 * (POST /api/cart/merge) and is cleared. Each line keeps the part as it was shown when added, so the cart page and
 * the badge show without asking the server; the server checks price and stock again at sign-in and checkout.
 */
const KEY = 'redline.cart';
/** As the server's cart (MAX_CART_LINES); kept here as a literal so this module loads without the schemas' zod. */
const MAX_LINES = 50;

export interface VisitorCartLine extends CartPartSnapshot {
  quantity: number;
  addedAt: string;
}

function isLine(value: unknown): value is VisitorCartLine {
  if (typeof value !== 'object' || value === null) return false;
  const line = value as Record<string, unknown>;
  return (
    typeof line.partId === 'string' &&
    typeof line.name === 'string' &&
    typeof line.img === 'string' &&
    typeof line.addedAt === 'string' &&
    ['price', 'minimumOrder', 'availableQuantity', 'quantity'].every((key) => Number.isFinite(line[key]))
  );
}

const EMPTY: VisitorCartLine[] = [];
const store = localStore<VisitorCartLine[]>({
  key: KEY,
  empty: EMPTY,
  parse: (value) => (Array.isArray(value) && value.every(isLine) ? value : null),
  isEmpty: (lines) => lines.length === 0,
});
const snapshot = store.read;
const write = store.write;

export function useVisitorCart(): VisitorCartLine[] {
  return store.useValue();
}

export const visitorCart = {
  read: snapshot,
  set(part: CartPartSnapshot, quantity: number) {
    const lines = snapshot();
    const existing = lines.find((line) => line.partId === part.partId);
    if (!existing && lines.length >= MAX_LINES) {
      throw new Error(`A Cart Holds At Most ${MAX_LINES} Parts. Check Out Or Remove One First.`);
    }
    const line: VisitorCartLine = { ...part, quantity, addedAt: existing?.addedAt ?? new Date().toISOString() };
    write(existing ? lines.map((l) => (l.partId === part.partId ? line : l)) : [...lines, line]);
  },
  remove(partId: string) {
    write(snapshot().filter((line) => line.partId !== partId));
  },
  clear() {
    write(EMPTY);
  },
};

/** The body of POST /api/cart/merge for this cart. */
export function mergeBody(lines: readonly VisitorCartLine[]): MergeCartBody {
  return { lines: lines.map((line) => ({ partId: line.partId, quantity: line.quantity })) };
}

/** A visitor's line as the cart page shows every line; `problem` is the order rule's word, as the server's is. */
export function toCartLine(line: VisitorCartLine, problem: string | null): CartLine {
  return {
    partId: line.partId,
    name: line.name,
    img: line.img,
    price: line.price,
    minimumOrder: line.minimumOrder,
    availableQuantity: line.availableQuantity,
    quantity: line.quantity,
    lineTotal: Math.round(line.price * 100 * line.quantity) / 100,
    problem,
    addedAt: line.addedAt,
  };
}
