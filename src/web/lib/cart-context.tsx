import { createContext, useContext } from 'react';
import type { CartLine } from '../../shared/schemas/cart.ts';

/** What a part's card or purchase screen knows of a part when it is put in a visitor's cart (shown until sign-in). */
export interface CartPartSnapshot {
  partId: string;
  name: string;
  img: string;
  /** Dollars. */
  price: number;
  minimumOrder: number;
  availableQuantity: number;
}

/**
 * The cart, for every page: a visitor's lives in this browser (localStorage, so it survives a reload), a
 * signed-in customer's on the server; a visitor's joins the account's at sign-in or sign-up. The app provides it
 * (app/cart-provider.tsx); features read it here, so none of them depends on the feature that stores it.
 */
export interface CartState {
  owner: 'visitor' | 'account';
  /** 'pending' while a signed-in customer's cart loads or a visitor's is being merged into it. */
  status: 'pending' | 'ready' | 'error';
  error: unknown;
  retry(): void;
  /** For a visitor, the parts as they were when added (live price and stock are checked at sign-in and checkout). */
  lines: CartLine[];
  /** Dollars. */
  total: number;
  /** How many parts (lines) the cart holds: the navigation bar's badge. */
  count: number;
  /** Puts the part in the cart with this quantity (replacing the quantity of a part already there). */
  set(part: CartPartSnapshot, quantity: number): Promise<void>;
  remove(partId: string): Promise<void>;
}

export const CartContext = createContext<CartState | null>(null);

export function useCart(): CartState {
  const cart = useContext(CartContext);
  if (!cart) throw new Error('useCart must be used inside the cart provider');
  return cart;
}
