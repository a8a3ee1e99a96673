import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { checkOrderQuantity } from '../../shared/order-rules.ts';
import { cartQueryOptions } from '../features/cart/cart-api.ts';
import { useMergeCart, useRemoveCartItem, useSetCartItem } from '../features/cart/use-cart-mutations.ts';
import { mergeBody, toCartLine, useVisitorCart, visitorCart } from '../features/cart/visitor-cart.ts';
import { useAuth } from '../lib/auth-context.tsx';
import { CartContext, type CartPartSnapshot, type CartState } from '../lib/cart-context.tsx';

/** A part as the order rule sees it, from what a visitor's cart keeps of it. */
function snapshotRule(part: CartPartSnapshot) {
  return {
    minimumOrder: part.minimumOrder,
    availableQuantity: part.availableQuantity,
    priceCents: Math.round(part.price * 100),
  };
}

/**
 * The one cart of the app, given to every page: a visitor's in this browser, a signed-in customer's on
 * the server. When someone signs in (or up) with parts in the browser's cart, those join the account's cart
 * (POST /api/cart/merge) and the browser's copy is cleared; until the merge answers, the cart shows as pending.
 */
export function CartProvider({ children }: { children: ReactNode }) {
  const { status: authStatus } = useAuth();
  const visitor = useVisitorCart();
  const owner: CartState['owner'] = authStatus === 'signed-out' ? 'visitor' : 'account';
  const server = useQuery({ ...cartQueryOptions, enabled: authStatus === 'signed-in' });
  const setNow = useSetCartItem();
  const removeNow = useRemoveCartItem();
  const mergeNow = useMergeCart();

  const merging = useRef(false);
  const [mergeFailed, setMergeFailed] = useState(false);
  // A failed merge is tried again at the next sign-in (or reload).
  useEffect(() => {
    if (authStatus === 'signed-out') setMergeFailed(false);
  }, [authStatus]);
  useEffect(() => {
    if (authStatus !== 'signed-in' || visitor.length === 0 || merging.current || mergeFailed) return;
    merging.current = true;
    mergeNow(mergeBody(visitor))
      .then(() => visitorCart.clear())
      // Kept in the browser: the next sign-in or reload tries again; meanwhile the account's cart shows.
      .catch(() => setMergeFailed(true))
      .finally(() => {
        merging.current = false;
      });
  }, [authStatus, visitor, mergeNow, mergeFailed]);

  const retry = server.refetch;
  const value = useMemo<CartState>(() => {
    if (owner === 'visitor') {
      const lines = visitor.map((line) => {
        const check = checkOrderQuantity(snapshotRule(line), line.quantity);
        return toCartLine(line, check.ok ? null : check.message);
      });
      return {
        owner,
        status: 'ready',
        error: null,
        retry: () => {},
        lines,
        total: Math.round(lines.reduce((sum, line) => sum + line.lineTotal * 100, 0)) / 100,
        count: lines.length,
        // The server's rule, checked here as the server would check it: a visitor's cart never holds a quantity
        // the merge at sign-in would refuse.
        set: async (part: CartPartSnapshot, quantity: number) => {
          const check = checkOrderQuantity(snapshotRule(part), quantity);
          if (!check.ok) throw new Error(check.message);
          visitorCart.set(part, quantity);
        },
        remove: async (partId: string) => visitorCart.remove(partId),
      };
    }
    const mergePending = visitor.length > 0 && !mergeFailed;
    const status: CartState['status'] =
      server.isError && !mergePending ? 'error' : server.data && !mergePending ? 'ready' : 'pending';
    return {
      owner,
      status,
      error: server.error,
      retry: () => void retry(),
      lines: server.data?.lines ?? [],
      total: server.data?.total ?? 0,
      count: server.data?.count ?? 0,
      set: async (part: CartPartSnapshot, quantity: number) => {
        await setNow({ partId: part.partId, quantity });
      },
      remove: async (partId: string) => {
        await removeNow(partId);
      },
    };
  }, [owner, visitor, mergeFailed, server.data, server.error, server.isError, retry, setNow, removeNow]);

  return <CartContext.Provider value={value}>{children}</CartContext.Provider>;
}
