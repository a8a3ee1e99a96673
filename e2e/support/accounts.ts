import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_ADMIN } from './constants.ts';
import { uniqueEmail } from './fixtures.ts';
import { linkIn, waitForMail } from './mailbox.ts';

export interface E2eUser {
  email: string;
  password: string;
  name: string;
  token: string;
}

/** Signs a new customer up through the real API (POST /api/signup) and returns the bearer token. */
export async function signUpViaApi(request: APIRequestContext, name = 'Casey Rider'): Promise<E2eUser> {
  const email = uniqueEmail();
  const password = 'ride-safe-123';
  const res = await request.post('/api/signup', { data: { name, email, password } });
  if (!res.ok()) throw new Error(`sign-up failed: ${res.status()} ${await res.text()}`);
  const body = (await res.json()) as { token: string };
  return { email, password, name, token: body.token };
}

/** Verifies the user's email with the link of the mail sign-up sent (posting a review needs a verified email). */
export async function verifyEmailViaMail(request: APIRequestContext, user: Pick<E2eUser, 'email'>): Promise<void> {
  const mail = await waitForMail(user.email, { subject: /verify your email/i });
  const token = new URLSearchParams(linkIn(mail, '/verify-email').split('#')[1] ?? '').get('token');
  const res = await request.post('/api/email/verify', { data: { token } });
  if (!res.ok()) throw new Error(`email verification failed: ${res.status()} ${await res.text()}`);
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
