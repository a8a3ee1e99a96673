import { beforeAll, expect, it } from 'vitest';
import { databaseChecksum } from '../../../../test/support/table-checksum.ts';
import { createUser, describeEachDatabase, type TestUser } from '../../../../test/support/test-app.ts';
import { encodeCursor } from '../../../shared/cursor.ts';
import type { UserListItem } from '../../../shared/schemas/accounts.ts';
import { users } from '../../db/schema.ts';

interface ListAnswer {
  status: number;
  list: UserListItem[];
  total: number;
  next: string | undefined;
  prev: string | undefined;
  link: string | undefined;
}

describeEachDatabase('the users list: search and paging', (ctx) => {
  let admin: TestUser;
  /** Seven accounts only this file's searches find: the tag is in each email or name, never in both forms. */
  const tag = `zq${Math.random().toString(36).slice(2, 8)}`;
  let tagged: { id: string; email: string; displayName: string }[];

  beforeAll(async () => {
    admin = await createUser(ctx(), { admin: true });
    // Four of them created in the same microsecond: only the id tells them apart, so paging must use it.
    const sameTime = new Date('2026-01-02T03:04:05.678Z');
    const rows = [
      { email: `${tag}-anna@example.com`, displayName: 'Anna Rider' },
      { email: `bob-${tag.toUpperCase()}@example.com`, displayName: 'Bob Rider' },
      { email: 'carol@example.net', displayName: `Carol ${tag}` },
      { email: 'dave@example.net', displayName: `Dave ${tag.toUpperCase()}son` },
      { email: `eve.${tag}@example.org`, displayName: 'Eve' },
      { email: `frank.${tag}@example.org`, displayName: 'Frank' },
      { email: `gina.${tag}@example.org`, displayName: 'Gina' },
    ].map((row, index) => ({ ...row, createdAt: index >= 3 ? sameTime : new Date(Date.now() - (10 - index) * 1000) }));
    tagged = await ctx()
      .database.db.insert(users)
      .values(rows)
      .returning({ id: users.id, email: users.email, displayName: users.displayName });
  });

  async function list(query: string, who: TestUser | null = admin): Promise<ListAnswer> {
    const res = await ctx().app.inject({
      method: 'GET',
      url: `/api/user${query ? `?${query}` : ''}`,
      headers: who ? who.headers : {},
    });
    const header = (name: string) => {
      const value = res.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    return {
      status: res.statusCode,
      list: res.statusCode === 200 ? res.json() : [],
      total: Number(header('x-total-count')),
      next: header('x-next-cursor'),
      prev: header('x-prev-cursor'),
      link: header('link'),
    };
  }

  it('finds users by part of their email or name, in any case, the search trimmed', async () => {
    const byTag = await list(`q=${encodeURIComponent(`  ${tag.toUpperCase()} `)}`);
    expect(byTag.status).toBe(200);
    expect(byTag.total).toBe(7);
    expect(byTag.list.map((user) => user._id).sort()).toEqual(tagged.map((user) => user.id).sort());

    const byName = await list('q=anna%20RIDER');
    expect(byName.list.map((user) => user.email)).toEqual([`${tag}-anna@example.com`]);
    const byEmail = await list(`q=${encodeURIComponent(`CAROL@EXAMPLE.NET`)}`);
    expect(byEmail.list.map((user) => user.displayName)).toEqual([`Carol ${tag}`]);

    // LIKE's own characters are searched for, not wildcards.
    const wildcard = await list('q=%25');
    expect(wildcard.status).toBe(200);
    expect(wildcard.list.every((user) => `${user.email}${user.displayName}`.includes('%'))).toBe(true);
    const nobody = await list(`q=${tag}_nobody`);
    expect([nobody.status, nobody.total, nobody.list]).toEqual([200, 0, []]);
  });

  it('without parameters lists every user, as the spec’s client expects, with the total', async () => {
    const all = await list('');
    expect(all.status).toBe(200);
    expect(all.list.length).toBe(all.total);
    expect(all.list.map((user) => user._id)).toEqual(expect.arrayContaining([admin.id, ...tagged.map((u) => u.id)]));
    expect(all.next).toBeUndefined();
    // A blank search is no search.
    expect((await list('q=%20%20')).total).toBe(all.total);
  });

  it('pages by cursor: every match exactly once, forward and back, in the same order as one long page', async () => {
    const whole = (await list(`q=${tag}`)).list.map((user) => user._id);
    const forward: string[] = [];
    const pages: ListAnswer[] = [];
    let page = await list(`q=${tag}&limit=2`);
    for (;;) {
      expect(page.status).toBe(200);
      expect(page.total).toBe(7);
      pages.push(page);
      forward.push(...page.list.map((user) => user._id));
      if (!page.next) break;
      expect(page.link).toContain(`rel="next"`);
      expect(page.link).toContain(`q=${tag}`);
      page = await list(`q=${tag}&limit=2&after=${page.next}`);
      expect(pages.length).toBeLessThan(10);
    }
    expect(pages.map((p) => p.list.length)).toEqual([2, 2, 2, 1]);
    expect(forward).toEqual(whole);
    expect(pages[0]?.prev).toBeUndefined();

    // Back from the last page by its `prev` cursors: the same pages, in reverse.
    const backward: string[][] = [];
    let back = pages.at(-1);
    while (back?.prev) {
      back = await list(`q=${tag}&limit=2&before=${back.prev}`);
      backward.push(back.list.map((user) => user._id));
    }
    expect(backward).toEqual(
      pages
        .slice(0, -1)
        .reverse()
        .map((p) => p.list.map((user) => user._id)),
    );

    // Offset pages say where the next page starts too.
    const second = await list(`q=${tag}&limit=2&offset=2`);
    expect(second.list.map((user) => user._id)).toEqual(whole.slice(2, 4));
    expect(second.next).toBe(pages[1]?.next);
  });

  it('refuses a bad cursor or page with 400 and changes nothing; customers and strangers get 403 and 401', async () => {
    const customer = await createUser(ctx());
    const before = await databaseChecksum(ctx().database.db);
    const id = tagged[0]?.id ?? '';
    const ordersCursor = encodeCursor({ o: 'orders', k: '2026-01-02T03:04:05.678000Z', i: id });
    const usersCursor = encodeCursor({ o: 'users', k: '2026-01-02T03:04:05.678000Z', i: id });
    for (const query of [
      'after=not-a-cursor',
      'before=%7B%7D',
      `after=${ordersCursor}`,
      `after=${usersCursor}&before=${usersCursor}`,
      `after=${usersCursor}&offset=2`,
      'limit=0',
      'limit=501',
      'limit=ten',
      'offset=-1',
      `q=${'x'.repeat(255)}`,
      'sort=email',
    ]) {
      const answer = await ctx().app.inject({ method: 'GET', url: `/api/user?${query}`, headers: admin.headers });
      expect(answer.statusCode, query).toBe(400);
      expect(answer.json().error.code, query).toBeTypeOf('string');
    }
    // A well-formed cursor of this list is just a position.
    expect((await list(`after=${usersCursor}&limit=1`)).status).toBe(200);
    expect((await list(`q=${tag}`, null)).status).toBe(401);
    expect((await list(`q=${tag}`, customer)).status).toBe(403);
    expect(await databaseChecksum(ctx().database.db)).toEqual(before);
  });
});
