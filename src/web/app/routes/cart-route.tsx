import { CartPage } from '../../features/cart/cart-page.tsx';
import { useCart } from '../../lib/cart-context.tsx';
import { useCartFit } from '../cart-fit.tsx';

/**
 * /cart: the cart feature's page over the cart the app provides (app/cart-provider.tsx), with whether each line fits
 * the chosen vehicle (the fitment feature's badge, for the catalogue's answer).
 */
export function Component() {
  const cart = useCart();
  const fit = useCartFit(cart.lines);
  return <CartPage fit={fit} />;
}
