import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../../test/support/test-app.ts';
import { rowsOf } from '../../db/rows-of.ts';

/**
 * The search table (ADR 025) is written by the database alone, in each writing statement's transaction: whatever
 * writes a part or its fitment rows (the API, an import, an order's stock, SQL by hand), `part_search` then holds
 * exactly the parts' searched columns and the models their fitment rows name. Written here straight in SQL, as any
 * module's statement would; the API's own writes are covered by the search tests reading their results.
 */
describeEachDatabase('search table: kept by the database', (ctx) => {
  const db = () => ctx().database.db;
  let modelA = '';
  let modelB = '';

  /** Rows of part_search that differ from what the parts and their fitment rows say (both directions). */
  async function drift(): Promise<unknown[]> {
    return rowsOf(
      await db().execute(sql`
        with expected as (
          select p.id as part_id, p.search_vector as document, p.name, p.part_numbers, p.brand_id, p.category_id,
            coalesce((select array_agg(distinct f.model_id order by f.model_id) from part_fitments f where f.part_id = p.id), '{}') as model_ids, p.created_at, p.universal
          from parts p
        )
        (select 'missing or stale' as problem, part_id from (select * from expected except select * from part_search) e)
        union all
        (select 'extra or stale', part_id from (select * from part_search except select * from expected) s)`),
    );
  }

  beforeAll(async () => {
    const [make] = rowsOf<{ id: string }>(
      await db().execute(sql`insert into vehicle_makes (name) values ('Searchtable Motors') returning id`),
    );
    const models = rowsOf<{ id: string }>(
      await db().execute(
        sql`insert into vehicle_models (make_id, name, type) values (${make?.id}, 'ST 100', 'motorcycle'), (${make?.id}, 'ST 200', 'motorcycle') returning id`,
      ),
    );
    modelA = models[0]?.id ?? '';
    modelB = models[1]?.id ?? '';
  });

  it('holds every part as written, through inserts, changes, fitment and deletes', async () => {
    await db().execute(sql`
      insert into parts (name, description, img, price_cents, available_quantity, mpn, part_numbers)
      select 'Table Part ' || i, 'kept by a trigger', '/images/parts/brake-disc.svg', 100 + i, 5, 'TP-' || i, array['tp' || i]
      from generate_series(1, 30) i`);
    expect(await drift()).toEqual([]);
    const ids = rowsOf<{ id: string }>(
      await db().execute(sql`select id from parts where name like 'Table Part %' order by name`),
    ).map((row) => row.id);
    const [first, second, third] = ids;
    await db().execute(sql`
      insert into part_fitments (part_id, model_id, year_from, year_to)
      select id, ${modelA}, 2010, 2015 from parts where name like 'Table Part %'`);
    await db().execute(
      sql`insert into part_fitments (part_id, model_id, year_from, year_to) values (${first}, ${modelB}, 2016, 2020)`,
    );
    expect(await drift()).toEqual([]);
    // A searched column, a stock change (no refresh needed) and several rows in one statement.
    await db().execute(sql`update parts set name = 'Renamed Part' where id = ${first}`);
    await db().execute(sql`update parts set description = 'now sintered', mpn = 'TP-NEW' where id = ${second}`);
    await db().execute(
      sql`update parts set available_quantity = available_quantity - 1 where name like 'Table Part %'`,
    );
    await db().execute(sql`update parts set part_numbers = array['tpx' || id::text] where name like 'Table Part 1%'`);
    await db().execute(sql`update parts set universal = true where id = ${third}`);
    await db().execute(sql`update part_fitments set model_id = ${modelB} where part_id = ${second}`);
    await db().execute(
      sql`update part_fitments set part_id = ${third} where part_id = ${first} and model_id = ${modelB}`,
    );
    await db().execute(sql`delete from part_fitments where part_id = ${first}`);
    expect(await drift()).toEqual([]);
    const [row] = rowsOf<{ model_ids: unknown }>(
      await db().execute(sql`select model_ids::text[] as model_ids from part_search where part_id = ${third}`),
    );
    expect([...((row?.model_ids ?? []) as string[])].sort()).toEqual([modelA, modelB].sort());
    await db().execute(sql`delete from parts where id = ${first}`);
    const [gone] = rowsOf<{ n: number }>(
      await db().execute(sql`select count(*)::int as n from part_search where part_id = ${first}`),
    );
    expect(Number(gone?.n)).toBe(0);
    expect(await drift()).toEqual([]);
    // The catalogue's words, for typo tolerance: every word of every part's name and description is there.
    const missing = rowsOf(
      await db().execute(sql`
        select word from parts, unnest(tsvector_to_array(to_tsvector('simple', name || ' ' || description))) word
        where word ~ '^[[:alpha:]]{3,40}$'
        except select word from part_search_words`),
    );
    expect(missing).toEqual([]);
    const [sintered] = rowsOf<{ n: number }>(
      await db().execute(sql`select count(*)::int as n from part_search_words where word in ('sintered', 'renamed')`),
    );
    expect(Number(sintered?.n)).toBe(2);
  });

  it('is what the search reads: a renamed part is found by its new name at once', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: '/api/part?q=renamed' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    await db().execute(sql`update parts set name = 'Zyxwv Part' where name = 'Table Part 7'`);
    const found = await ctx().app.inject({ method: 'GET', url: '/api/part?q=zyxwv&limit=5' });
    expect(found.json().map((part: { name: string }) => part.name)).toEqual(['Zyxwv Part']);
  });
});
