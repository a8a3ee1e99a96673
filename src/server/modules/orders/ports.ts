/**
 * What other modules may use of the orders module besides order-payment-port.ts (ADR 027): the guards the payments
 * module implements for it, and the order rule's refusals as the API answers them (the cart answers them too).
 */
export { refusalError } from './order-refusals.ts';
export type { MailKick, PaymentGuard, RefundGuard } from './orders-service.ts';
