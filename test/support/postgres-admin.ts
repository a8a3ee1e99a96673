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

/**
 * Test databases (`redline_tpl_<run>`, `redline_t_<run>_…`) of runs that were killed before their teardown. A run id
 * is `r` + start time (8 base-36 digits) + the runner's pid (base 36): a database is dropped when that pid is not
 * alive here AND the run started over an hour ago (the PostgreSQL may be shared with another machine, whose pids
 * mean nothing here).
 */
export async function dropStaleRunDatabases(url: string, now = Date.now()): Promise<string[]> {
  const stale: string[] = [];
  await withAdminClient(url, async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname ~ '^redline_(tpl|t)_r[0-9a-z]{9,}'",
    );
    for (const { datname } of rows) {
      const match = /^redline_(?:tpl|t)_r([0-9a-z]{8})([0-9a-z]+?)(?:_[0-9a-f]+)?$/.exec(datname);
      if (!match) continue;
      const started = Number.parseInt(match[1] as string, 36);
      const pid = Number.parseInt(match[2] as string, 36);
      if (now - started < 60 * 60 * 1000 || isAlive(pid)) continue;
      await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      stale.push(datname);
    }
  });
  return stale;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
