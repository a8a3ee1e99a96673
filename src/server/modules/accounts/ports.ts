/** What other modules may use of the accounts module (ADR 027); services.ts hands them the implementations. */
export type { AddressBookPort, Destination } from './address-book.ts';
export { sameEmail } from './emails.ts';
