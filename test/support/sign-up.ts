import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../src/server/db/client.ts';
import { mailOutbox } from '../../src/server/db/schema.ts';
import type { AuthResponse } from '../../src/shared/schemas/accounts.ts';

export interface SignUpBody {
  name: string;
  email: string;
  password: string;
}

/**
 * The token of the newest mailed link of `kind` to `email`, read from the outbox (tests do not deliver mail).
 * Matched without regard to case, as the shop matches emails.
 */
export async function newestMailedToken(
  db: Database,
  kind: 'verify-email' | 'reset-password',
  email: string,
): Promise<string | null> {
  const [mail] = await db
    .select({ text: mailOutbox.text })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, kind), eq(mailOutbox.recipient, email)))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(1);
  return /#token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1] ?? null;
}

let addressCounter = 0;

/** An address of its own for each sign-up, so the per-address limits of a test's many sign-ups never add up. */
function freshAddress(): string {
  addressCounter += 1;
  return `10.200.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}

/**
 * Signs up as a person would: POST /api/signup, then the link of the mail it sent, which creates the account and
 * answers its first session. Throws if either step fails.
 */
export async function signUpAndVerify(
  app: FastifyInstance,
  db: Database,
  body: SignUpBody,
  remoteAddress = freshAddress(),
): Promise<AuthResponse> {
  const signup = await app.inject({ method: 'POST', url: '/api/signup', payload: body, remoteAddress });
  if (signup.statusCode !== 202) throw new Error(`sign-up failed: ${signup.statusCode} ${signup.body}`);
  const token = await newestMailedToken(db, 'verify-email', body.email.trim());
  if (!token) throw new Error(`no sign-up link mailed to ${body.email}`);
  const verify = await app.inject({ method: 'POST', url: '/api/email/verify', payload: { token }, remoteAddress });
  if (verify.statusCode !== 200) throw new Error(`sign-up link refused: ${verify.statusCode} ${verify.body}`);
  const answer = verify.json() as AuthResponse;
  if (!answer.token) throw new Error('the sign-up link answered no session');
  return { token: answer.token, expiresAt: answer.expiresAt, user: answer.user };
}
