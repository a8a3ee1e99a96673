import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config.ts';
import { Limiter } from '../../rate-limiter.ts';

type LimitConfig = Pick<
  AppConfig,
  | 'RATE_LIMIT_WINDOW_SECONDS'
  | 'RATE_LIMIT_LOGIN_PER_IP'
  | 'RATE_LIMIT_LOGIN_PER_ACCOUNT'
  | 'RATE_LIMIT_SIGNUP_PER_IP'
  | 'RATE_LIMIT_SIGNUP_PER_ACCOUNT'
  | 'RATE_LIMIT_NAMESPACE'
  | 'RATE_LIMIT_LOGIN_DELAY_MAX_MS'
  | 'RATE_LIMIT_PASSWORD_RESET_PER_IP'
  | 'RATE_LIMIT_PASSWORD_RESET_PER_EMAIL'
  | 'RATE_LIMIT_VERIFY_RESEND_PER_ACCOUNT'
>;

/** What a refused sign-in carries (M3): the way back in that no limit blocks, for the web to link to. */
export const LOGIN_LIMIT_DETAILS = [{ resetPasswordPath: '/forgot-password' }];

function bodyEmail(request: FastifyRequest): string {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
}

interface AbuseLimits {
  /** Every sign-in attempt from one address, whatever the account. */
  loginPerIp: Limiter;
  /**
   * Failed sign-ins from one address on one account (M3). There is no lock per account alone: that let anyone lock
   * the admin out with ten wrong passwords. A correct password is refused only from the address that kept failing.
   */
  loginPerAddressAccount: Limiter;
  /** Failed sign-ins on one account from anywhere: never refuses, only slows (`loginDelayMs`). */
  loginFailuresPerAccount: Limiter;
  /** The wait before answering a sign-in to this account: grows with its failures, capped (M3). */
  loginDelayMs(request: FastifyRequest): Promise<number>;
  signupPerIp: Limiter;
  signupPerAccount: Limiter;
  /**
   * Mails a sign-up sends to one email (its link, or "you already have an account" to its owner), as many as the
   * reset mails: past it the sign-up still answers the same, but nothing is mailed (nobody can flood an inbox).
   */
  signupMailsPerEmail: Limiter;
  googlePerIp: Limiter;
  /** Redeeming mailed links and Google codes, per address: 256-bit tokens cannot be guessed, but nobody may try. */
  tokensPerIp: Limiter;
  passwordResetPerIp: Limiter;
  passwordResetPerEmail: Limiter;
  verifyResendPerAccount: Limiter;
  /** Wrong current passwords on Change Password, per signed-in account (a stolen session must not guess). */
  passwordChangePerAccount: Limiter;
}

/** Failures on an account before any delay, and how the delay grows after them: 1/16 of the cap, doubling. */
const FREE_FAILURES = 3;

export function createAbuseLimits(app: FastifyInstance, config: LimitConfig): AbuseLimits {
  const windowMs = config.RATE_LIMIT_WINDOW_SECONDS * 1000;
  const ns = config.RATE_LIMIT_NAMESPACE;
  const ip = (request: FastifyRequest) => request.ip;
  const ipAndEmail = (request: FastifyRequest) => `${request.ip}|${bodyEmail(request)}`;
  const userId = (request: FastifyRequest) => request.user?.id ?? `anonymous:${request.ip}`;
  const login = { details: LOGIN_LIMIT_DETAILS };
  const failuresPerAccount = new Limiter(app, 'login-account-failures', 1_000_000, windowMs, ns, bodyEmail);
  const maxDelay = config.RATE_LIMIT_LOGIN_DELAY_MAX_MS;
  return {
    loginPerIp: new Limiter(app, 'login-ip', config.RATE_LIMIT_LOGIN_PER_IP, windowMs, ns, ip, login),
    loginPerAddressAccount: new Limiter(
      app,
      'login-ip-account',
      config.RATE_LIMIT_LOGIN_PER_ACCOUNT,
      windowMs,
      ns,
      ipAndEmail,
      login,
    ),
    loginFailuresPerAccount: failuresPerAccount,
    async loginDelayMs(request) {
      if (maxDelay === 0) return 0;
      const failures = await failuresPerAccount.count(request);
      if (failures <= FREE_FAILURES) return 0;
      return Math.min(maxDelay, Math.round((maxDelay / 16) * 2 ** (failures - FREE_FAILURES - 1)));
    },
    signupPerIp: new Limiter(app, 'signup-ip', config.RATE_LIMIT_SIGNUP_PER_IP, windowMs, ns, ip),
    signupPerAccount: new Limiter(app, 'signup-account', config.RATE_LIMIT_SIGNUP_PER_ACCOUNT, windowMs, ns, bodyEmail),
    signupMailsPerEmail: new Limiter(
      app,
      'signup-mail',
      config.RATE_LIMIT_PASSWORD_RESET_PER_EMAIL,
      windowMs,
      ns,
      bodyEmail,
    ),
    googlePerIp: new Limiter(app, 'google-ip', config.RATE_LIMIT_LOGIN_PER_IP, windowMs, ns, ip),
    tokensPerIp: new Limiter(app, 'tokens-ip', config.RATE_LIMIT_LOGIN_PER_IP, windowMs, ns, ip),
    passwordResetPerIp: new Limiter(app, 'reset-ip', config.RATE_LIMIT_PASSWORD_RESET_PER_IP, windowMs, ns, ip),
    passwordResetPerEmail: new Limiter(
      app,
      'reset-email',
      config.RATE_LIMIT_PASSWORD_RESET_PER_EMAIL,
      windowMs,
      ns,
      bodyEmail,
    ),
    verifyResendPerAccount: new Limiter(
      app,
      'verify-resend',
      config.RATE_LIMIT_VERIFY_RESEND_PER_ACCOUNT,
      windowMs,
      ns,
      userId,
    ),
    passwordChangePerAccount: new Limiter(
      app,
      'password-change',
      config.RATE_LIMIT_LOGIN_PER_ACCOUNT,
      windowMs,
      ns,
      userId,
    ),
  };
}
