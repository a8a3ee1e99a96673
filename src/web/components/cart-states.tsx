import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../shared/paths.ts';
import type { CartState } from '../lib/cart-context.tsx';
import { EmptyState, LoadError, LoadingSpinner } from './query-state.tsx';

/**
 * The cart's loading, error and empty states, the same on the cart and the checkout page; `children` draws the page
 * once the cart has lines.
 */
export function CartStates({ cart, children }: { cart: CartState; children: () => ReactNode }) {
  if (cart.status === 'pending') return <LoadingSpinner label="Loading your cart…" />;
  if (cart.status === 'error') return <LoadError error={cart.error} onRetry={cart.retry} what="your cart" />;
  if (cart.count === 0) {
    return (
      <EmptyState>
        <p className="mb-2">Your cart is empty.</p>
        <Link to={paths.parts} className="btn btn-brand">
          See All Parts
        </Link>
      </EmptyState>
    );
  }
  return children();
}
