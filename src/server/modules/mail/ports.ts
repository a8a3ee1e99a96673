/**
 * What other modules may use of the mail module (ADR 027): a mail enqueued in the caller's transaction, the templates
 * that render it, and for the job runner the delivery that sends what was enqueued.
 */
export {
  accountExistsMail,
  passwordChangedMail,
  resetPasswordMail,
  signInMethodLinkedMail,
  verifyEmailMail,
} from './account-mails.ts';
export { createMailDelivery, type MailDelivery } from './mail-delivery.ts';
export { mailDeliverySettings, purgeOldMailTask } from './mail-jobs.ts';
export type { MailContent, MailDocument } from './mail-layout.ts';
export { enqueueMail, mailOutboxStats } from './mail-outbox.ts';
export { createMailTransport } from './mail-transport.ts';
export {
  adminNewPaidOrderMail,
  checkoutPlacedMail,
  type MailOrder,
  type OrderLinks,
  orderCancelledMail,
  orderDeliveredMail,
  orderPlacedMail,
  orderRefundedMail,
  orderShippedMail,
  paymentReceiptMail,
} from './order-mails.ts';
