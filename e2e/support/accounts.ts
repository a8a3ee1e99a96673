import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { E2E_ADMIN } from './constants.ts';
import { uniqueEmail } from './fixtures.ts';
import { linkIn, waitForMail } from './mailbox.ts';

export interface E2eUser {
  email: string;
  password: string;
  name: string;
  token: string;
}

/**
 * Signs a new customer up through the real API, as a person does: POST /api/signup, then the link of the mail it
 * sent (POST /api/email/verify), which creates the account, verified, and answers its first bearer token.
 */
export async function signUpViaApi(request: APIRequestContext, name = 'Casey Rider'): Promise<E2eUser> {
  const email = uniqueEmail();
  const password = 'ride-safe-123';
  const res = await request.post('/api/signup', { data: { name, email, password } });
  if (res.status() !== 202) throw new Error(`sign-up failed: ${res.status()} ${await res.text()}`);
  const verified = await request.post('/api/email/verify', { data: { token: await signUpLinkToken(email) } });
  if (!verified.ok()) throw new Error(`sign-up link refused: ${verified.status()} ${await verified.text()}`);
  const body = (await verified.json()) as { token?: string };
  if (!body.token) throw new Error('the sign-up link answered no token');
  return { email, password, name, token: body.token };
}

/** The path (with its fragment) of the newest sign-up link mailed to `email`: what the person clicks. */
export async function signUpLink(email: string, already = 0): Promise<string> {
  const mail = await waitForMail(email, { subject: /verify your email/i, already });
  return linkIn(mail, '/verify-email');
}

async function signUpLinkToken(email: string): Promise<string | null> {
  return new URLSearchParams((await signUpLink(email)).split('#')[1] ?? '').get('token');
}

/**
 * After Sign Up on the page: opens the link of the mail it sent, in this page, as the person would from their
 * mailbox. The link creates the account and signs in, then leads to the page that sent them to sign up, or home.
 */
export async function finishSignUpFromMail(page: Page, email: string): Promise<void> {
  await expect(page.getByRole('status').filter({ hasText: 'Check your email to finish signing up' })).toBeVisible();
  await page.goto(await signUpLink(email));
}

/** Signs the seeded admin in through the real API (POST /api/login). */
export async function signInAdminViaApi(request: APIRequestContext): Promise<E2eUser> {
  const res = await request.post('/api/login', { data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password } });
  if (!res.ok()) throw new Error(`admin sign-in failed: ${res.status()} ${await res.text()}`);
  const body = (await res.json()) as { token: string };
  return { email: E2E_ADMIN.email, password: E2E_ADMIN.password, name: 'Shop Admin', token: body.token };
}

/** Makes the page start signed in with this token, exactly as the app stores it (localStorage.accessToken). */
export async function useToken(page: Page, token: string): Promise<void> {
  await page.addInitScript((value) => {
    if (!sessionStorage.getItem('e2e-token-set')) {
      localStorage.setItem('accessToken', value);
      sessionStorage.setItem('e2e-token-set', '1');
    }
  }, token);
}

/** Fills the login page's form (spec §2 Login) with this account and presses Login. */
export async function logInOnPage(page: Page, user: Pick<E2eUser, 'email' | 'password'>): Promise<void> {
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
}
