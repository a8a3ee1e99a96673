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
