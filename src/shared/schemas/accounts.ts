import { z } from 'zod';
import { validationMessages as m } from '../messages.ts';
import { httpUrlSchema } from './common.ts';

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
  name: z
    .string({ error: m.nameRequired })
    .trim()
    .min(1, m.nameRequired)
    .max(80, 'Name Must Be 80 Characters Or Fewer'),
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

/** PUT /api/user/{email}: a fresh token for the caller's own, already signed-in account. */
export const tokenResponseSchema = z.object({ token: z.string(), expiresAt: z.string() });
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** The spec sends `{email}` with PUT /user/{email}; the path already names it, so the body is optional. */
export const tokenRequestBodySchema = z.strictObject({ email: z.string().max(254).optional() }).nullish();

/**
 * An email in a path. Looser than the sign-up pattern: a Google account may use a longer top-level domain
 * (`.info`, `.shop`), and such a user must still be able to ask about themselves.
 */
export const emailParamsSchema = z.strictObject({
  email: z.string().trim().min(3, m.emailInvalid).max(254, m.emailInvalid),
});

export const adminCheckSchema = z.object({ admin: z.boolean() });
export type AdminCheck = z.infer<typeof adminCheckSchema>;

/** One row of the users admin table (spec §3 User: _id, email, admin flag). */
export const userListItemSchema = z.object({
  _id: z.string(),
  email: z.string(),
  displayName: z.string(),
  admin: z.boolean(),
});
export type UserListItem = z.infer<typeof userListItemSchema>;

export const makeAdminResponseSchema = z.object({ modifiedCount: z.number().int().min(0) });
export type MakeAdminResponse = z.infer<typeof makeAdminResponseSchema>;

/** Which sign-in providers this server has configured, so the web can say so instead of failing. */
export const providersSchema = z.object({ google: z.boolean() });
export type Providers = z.infer<typeof providersSchema>;

const optionalHttpUrl = z.union([z.literal(''), httpUrlSchema]);

/**
 * Spec §3 Profile with the spec's wire names. Spec §5 sets no validation; we only bound the lengths and accept
 * http(s) links alone, so a profile can never carry a `javascript:` link into someone's page.
 */
export const profileBodySchema = z.strictObject({
  education: z.string().trim().max(2000, 'Use At Most 2000 Characters').default(''),
  phonenumber: z
    .string()
    .trim()
    .max(30, 'Use At Most 30 Characters')
    .regex(/^[0-9+()\-.\s]*$/, 'Use Digits, Spaces And + ( ) - Only')
    .default(''),
  img: optionalHttpUrl.default(''),
  link: optionalHttpUrl.default(''),
});
export type ProfileBody = z.input<typeof profileBodySchema>;

export const profileSchema = z.object({
  education: z.string(),
  phonenumber: z.string(),
  img: z.string(),
  link: z.string(),
  /** Null until the user saves a profile for the first time. */
  updatedAt: z.string().nullable(),
});
export type Profile = z.infer<typeof profileSchema>;

/**
 * Where to go after signing in: only a path on this site (never `//evil.com`, `/\evil.com` or a full URL), so a
 * crafted sign-in link cannot bounce a user to another site. Anything else becomes `/`.
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 512) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\') || hasControlCharacter(value))
    return '/';
  try {
    const base = 'http://return-to.invalid';
    const url = new URL(value, base);
    if (url.origin !== base || url.pathname.startsWith('/api/') || url.pathname.startsWith('/auth/')) return '/';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/';
  }
}

function hasControlCharacter(value: string): boolean {
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/* Issue 10 (docs/briefs accounts contract): email verification, password reset and change, Google's one-time code. */

/** Answers that only say something to the person: 202 of forgot / resend, 200 of reset. */
export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

/** The token of a mailed link (it reaches the web in the URL fragment, the server in a body). */
const linkTokenSchema = z.string().trim().min(1).max(512);

export const verifyEmailBodySchema = z.strictObject({ token: linkTokenSchema });
export type VerifyEmailBody = z.infer<typeof verifyEmailBodySchema>;

export const verifyEmailResponseSchema = z.object({ email: z.string(), emailVerified: z.literal(true) });
export type VerifyEmailResponse = z.infer<typeof verifyEmailResponseSchema>;

export const forgotPasswordBodySchema = z.strictObject({ email: emailSchema });
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBodySchema>;

export const resetPasswordBodySchema = z.strictObject({ token: linkTokenSchema, password: passwordSchema });
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

export const changePasswordBodySchema = z.strictObject({
  currentPassword: z.string({ error: m.passwordRequired }).min(1, m.passwordRequired).max(128, m.passwordTooLong),
  newPassword: passwordSchema,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

export const googleRedeemBodySchema = z.strictObject({ code: z.string().trim().min(1).max(512) });
