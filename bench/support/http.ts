import fs from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
/** The API calls the throughput benchmarks make to set up their data (parts, buyers) over HTTP, as a client would. */

/** The admin the throughput benchmarks' server is started with (BENCH_SHOP_ENV) and that adds their parts. */
export const BENCH_ADMIN = { email: 'bench-admin@redline.dev', password: 'bench-admin-password' };

/**
 * The server settings of a throughput benchmark: the demo shop with BENCH_ADMIN as its admin, and sign-up and log-in
 * rate limits far above what the benchmark's buyers need, and no caps on holds across accounts.
 */
export const BENCH_SHOP_ENV: Readonly<Record<string, string>> = {
  SEED_DEMO_DATA: 'true',
  ADMIN_EMAIL: BENCH_ADMIN.email,
  ADMIN_PASSWORD: BENCH_ADMIN.password,
  RATE_LIMIT_SIGNUP_PER_IP: '100000',
  RATE_LIMIT_LOGIN_PER_IP: '100000',
  // The buyers are new, unverified accounts on one address: the caps on holds across accounts would refuse them.
  ORDER_UNVERIFIED_HOLD_LIMIT: 'off',
  ORDER_ADDRESS_HOLD_LIMIT: 'off',
  ORDER_NEW_ACCOUNT_HOLD_PERCENT: 'off',
};

/**
 * A customer signed up as a person does: the sign-up, then the link of the mail it wrote under `mailDir` (the server
 * runs its job runner and writes mail to files), which creates the account and answers its first token.
 */
export async function signUpCustomer(
  server: { baseUrl: string; mailDir: string },
  body: { name: string; email: string; password: string },
): Promise<string> {
  const signup = await fetch(`${server.baseUrl}/api/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (signup.status !== 202) throw new Error(`sign-up failed: ${signup.status} ${await signup.text()}`);
  const token = await signUpLinkToken(server.mailDir, body.email);
  const verified = await post<{ token?: string }>(server.baseUrl, '/api/email/verify', { token });
  if (!verified.token) throw new Error('the sign-up link answered no token');
  return verified.token;
}

const seenMailFiles = new Set<string>();
const linkTokens = new Map<string, string>();

async function signUpLinkToken(mailDir: string, email: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (fs.existsSync(mailDir)) {
      for (const name of fs.readdirSync(mailDir)) {
        if (!name.endsWith('.eml') || seenMailFiles.has(name)) continue;
        seenMailFiles.add(name);
        const mail = await simpleParser(fs.readFileSync(path.join(mailDir, name)));
        const to = (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value);
        const token = /verify-email#token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
        for (const address of to) if (token && address.address) linkTokens.set(address.address.toLowerCase(), token);
      }
    }
    const token = linkTokens.get(email.toLowerCase());
    if (token) return token;
    if (Date.now() > deadline) throw new Error(`no sign-up mail to ${email} in ${mailDir}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The admin's token, for adding the benchmark's parts. */
export async function logInBenchAdmin(base: string): Promise<string> {
  return (await post<{ token: string }>(base, '/api/login', BENCH_ADMIN)).token;
}

/** The body of a 2xx answer; anything else stops the benchmark with the server's answer. */
export async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export async function post<T>(base: string, url: string, body: unknown, token?: string): Promise<T> {
  return json<T>(
    await fetch(`${base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    }),
  );
}

/** A $9.99 part with `stock` units and no minimum, added by the admin whose token is given; resolves with its id. */
export async function addBenchPart(base: string, token: string, name: string, stock: number): Promise<string> {
  const part = await post<{ _id: string }>(
    base,
    '/api/part',
    {
      name,
      desription: 'Benchmark part',
      img: '/images/parts/brake-disc.svg',
      price: 9.99,
      availablequantity: stock,
      minimunorder: 1,
    },
    token,
  );
  return part._id;
}
