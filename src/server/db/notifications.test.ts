import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.ts';
import { listenPostgres, type NotificationListener } from './notifications.ts';

describe.runIf(process.env.TEST_DATABASE_URL)('the PostgreSQL listener [postgres]', () => {
  let database: TestDatabase;
  let listener: NotificationListener;
  const heard: boolean[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    if (!database.url) throw new Error('no url');
    listener = await listenPostgres(
      database.url,
      'redline_listener_test',
      { onNotification: () => {}, onListening: (listening) => heard.push(listening) },
      { connectTimeoutMs: 5000 },
    );
  });

  afterAll(async () => {
    await listener?.close();
    await database?.close();
  });

  it('a marker that arrived while the event loop was blocked is heard, not taken for a dead connection', async () => {
    expect(listener.listening).toBe(true);
    const check = listener.caughtUp(200);
    // The marker comes back meanwhile, but nothing reads it until the loop turns, after its timer is due.
    const until = performance.now() + 600;
    while (performance.now() < until) {
      // Blocked on purpose.
    }
    expect(await check).toBe(true);
    expect(listener.listening).toBe(true);
    expect(heard).toEqual([true]);
  });
});
