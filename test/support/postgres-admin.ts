import pg from 'pg';

/** The same server and credentials as `url`, another database. */
export function adminConnectionUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function withAdminClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Drops this run's test databases (and its template), leaving other runs' alone. */
export async function dropDatabasesWithPrefix(url: string, prefix: string, template: string | null): Promise<void> {
  await withAdminClient(url, async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1) OR datname = $2',
      [prefix, template ?? ''],
    );
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  });
}
