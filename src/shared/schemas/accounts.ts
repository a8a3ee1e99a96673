import { z } from 'zod';
import { validationMessages as m } from '../messages.ts';

/**
 * Spec §5: a loose email pattern (letters or digits, @, a domain, a dot and a 2–3 letter ending).
 * Dots, plus and dashes are allowed before the @ and in the domain, as real addresses have them.
 */
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,3}$/;

export const emailSchema = z
  .string({ error: m.emailRequired })
  .trim()
  .min(1, m.emailRequired)
  .max(254, m.emailInvalid)
  .regex(EMAIL_PATTERN, m.emailInvalid);

export const passwordSchema = z
  .string({ error: m.passwordRequired })
  .min(1, m.passwordRequired)
  .min(6, m.passwordTooShort)
  .max(128, m.passwordTooLong);

export const loginBodySchema = z.strictObject({
  email: emailSchema,
  password: passwordSchema,
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const signupBodySchema = z.strictObject({
  name: z.string({ error: m.nameRequired }).trim().min(1, m.nameRequired).max(80, 'Name Must Be 80 Characters Or Fewer'),
  email: emailSchema,
  password: passwordSchema,
});
export type SignupBody = z.infer<typeof signupBodySchema>;

/** The signed-in user as the client sees it. */
export const meSchema = z.object({
  email: z.string(),
  displayName: z.string(),
  isAdmin: z.boolean(),
});
export type Me = z.infer<typeof meSchema>;

/** Answer of a proven sign-in: the bearer token (stored as localStorage.accessToken) and who it belongs to. */
export const authResponseSchema = z.object({
  token: z.string(),
  expiresAt: z.string(),
  user: meSchema,
});
export type AuthResponse = z.infer<typeof authResponseSchema>;
