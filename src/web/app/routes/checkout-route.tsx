import { CheckoutPage } from '../../features/checkout/checkout-page.tsx';
import { useCart } from '../../lib/cart-context.tsx';
import { useCartFit } from '../cart-fit.tsx';

/**
 * /checkout (signed in): the checkout feature's page over the cart the app provides, with whether each line fits the
 * chosen vehicle, so a part that does not fit is not ordered unseen.
 */
export function Component() {
  const cart = useCart();
  const fit = useCartFit(cart.lines);
  return <CheckoutPage fit={fit} />;
}
