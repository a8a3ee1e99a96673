import { z } from 'zod';
import { checkCursorQuery, cursorQuery } from '../cursor.ts';
import { validationMessages as m } from '../messages.ts';
import { httpUrlSchema } from './common.ts';

/**
 * Any syntactically valid address (L5; docs/spec-deviations.md): a dot-atom local part of at most 64
 * characters (letters, digits and ! # $ % & ' * + / = ? ^ _ ` { | } ~ - with single dots between), @, a domain of
 * letter-digit-hyphen labels and a top-level ending of 2–63 letters (`.shop`, `.motorcycles`). The spec's pattern
 * allowed only 2–3 letter endings, which refused real customers. Quoted local parts and IP-literal domains are not
 * accepted: no mail provider hands those out, and they are where header injection hides.
 */
export const EMAIL_PATTERN =
  /^(?=[^@]{1,64}@)[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

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
  /** False until the owner opens the link of the verification mail (or resets the password, or came from Google). */
  emailVerified: z.boolean(),
  /** False for an account that signs in only with Google (it can set one with Forgot Password?). */
  hasPassword: z.boolean(),
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

/** The most users one page of `GET /api/user` holds. */
export const USERS_MAX_LIMIT = 500;

/**
 * `GET /api/user`: without parameters every user (the spec's "list of all users"), oldest account first; `q` keeps
 * those whose email or name contains it (any case), `limit` and `offset` or a cursor (`after`/`before`, keyset
 * paging as the order lists) page it. The total is in `X-Total-Count`.
 */
export const usersQuerySchema = z
  .strictObject({
    q: z.string().trim().max(254, 'Search With At Most 254 Characters').optional().describe('Part of an email or name'),
    limit: z.coerce.number().int().min(1).max(USERS_MAX_LIMIT).optional().describe('Page size; without it, all'),
    offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
    after: cursorQuery.optional().describe('The page after this cursor (not with `offset`)'),
    before: cursorQuery.optional().describe('The page before this cursor'),
  })
  .superRefine((query, ctx) => checkCursorQuery(query, 'users', ctx));
export type UsersQuery = z.infer<typeof usersQuerySchema>;

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
 * Where to go after signing in: only a path on this site (never `//evil.com`, `/\\evil.com` or a full URL), so a
 * crafted sign-in link cannot bounce a user to another site. Anything else becomes `/`. It normalises BEFORE it
 * checks (L1): dot segments are resolved (`/.//evil.example` is `//evil.example`) and percent-encoding is decoded
 * (`/%2F%2Fevil.example`), and the path it would answer is checked again in every form a browser or router may read.
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 512) return '/';
  if (!isLocalPath(value)) return '/';
  try {
    const url = new URL(value, RETURN_TO_BASE);
    const path = `${url.pathname}${url.search}${url.hash}`;
    if (url.origin !== RETURN_TO_BASE || !isLocalPath(path)) return '/';
    if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/auth/')) return '/';
    return path;
  } catch {
    return '/';
  }
}

const RETURN_TO_BASE = 'http://return-to.invalid';

/** A path that stays on this site as written AND once percent-decoded (a router may decode before it navigates). */
function isLocalPath(path: string): boolean {
  const forms = [path];
  let current = path;
  for (let round = 0; round < 3; round++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      // A stray `%` (a literal percent sign) cannot be decoded further; what was decoded so far is checked.
      break;
    }
    if (decoded === current) break;
    forms.push(decoded);
    current = decoded;
  }
  return forms.every((form) => {
    if (!form.startsWith('/') || form.startsWith('//') || form.includes('\\') || hasControlCharacter(form))
      return false;
    try {
      const resolved = new URL(form, RETURN_TO_BASE);
      return resolved.origin === RETURN_TO_BASE && !resolved.pathname.startsWith('//');
    } catch {
      return false;
    }
  });
}

function hasControlCharacter(value: string): boolean {
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/* Email verification, password reset and change, Google's one-time code. */

/** Answers that only say something to the person: 202 of forgot / resend, 200 of reset. */
export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

/** The token of a mailed link (it reaches the web in the URL fragment, the server in a body). */
const linkTokenSchema = z.string().trim().min(1).max(512);

export const verifyEmailBodySchema = z.strictObject({ token: linkTokenSchema });
export type VerifyEmailBody = z.infer<typeof verifyEmailBodySchema>;

/**
 * POST /api/email/verify. A link that finishes a sign-up also signs its opener in: `token`, `expiresAt` and `user`
 * as a sign-in answers them. A link of an account made before sign-ups waited for their link only verifies it.
 */
export const verifyEmailResponseSchema = z.object({
  email: z.string(),
  emailVerified: z.literal(true),
  token: z.string().optional(),
  expiresAt: z.string().optional(),
  user: meSchema.optional(),
});
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
