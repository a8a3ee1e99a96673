/** /checkout (signed in): the checkout feature's page over the cart the app provides. */
export { Component } from '../../features/checkout/checkout-page.tsx';
