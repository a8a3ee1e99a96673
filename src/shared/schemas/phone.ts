import { z } from 'zod';

/**
 * A phone number as an order, the purchase form and the address book take it: digits, spaces and + ( ) - . only, at
 * most 30 characters; empty where the caller allows none. A module of its own so the part page's form gets the rule
 * without building every order schema (less script to run while the page hydrates).
 */
export const phoneNumberSchema = z
  .string()
  .trim()
  .max(30, 'Phone Number Must Be 30 Characters Or Fewer')
  .regex(/^[0-9+()\-.\s]*$/, 'Provide A Valid Phone Number');
