/** /cart: the cart feature's page; it reads the cart the app provides (app/cart-provider.tsx). */
export { Component } from '../../features/cart/cart-page.tsx';
