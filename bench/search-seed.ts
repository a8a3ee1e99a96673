import { sql } from 'drizzle-orm';
import type { BenchSqlRunner } from './fitment-seed.ts';

/**
 * Words for bench/fitment-seed.ts's catalogue (for bench/search-latency.ts): part names and descriptions a shop
 * has, real brand names for the first brands, make names and model codes ("KA450"), so searches find what they
 * would in a shop.
 */
const ADJECTIVES = ['Sintered', 'Organic', 'Racing', 'Touring', 'Sport', 'Heavy', 'Iridium', 'Sealed', 'Rear', 'Front'];
const NOUNS = [
  'Brake Pads',
  'Brake Disc',
  'Brake Lever',
  'Clutch Lever',
  'Drive Chain',
  'Sprocket',
  'Oil Filter',
  'Air Filter',
  'Spark Plug',
  'Silencer',
  'Headlight',
  'Mirror',
  'Tyre',
  'Seat',
  'Helmet',
  'Gloves',
  'Boots',
  'Protector',
  'Gauge',
  'Battery',
];
const BRANDS = ['EBC', 'Brembo', 'Galfer', 'NGK', 'KMC', 'DID', 'Akrapovic', 'Yoshimura', 'Hiflofiltro', 'K&N'];
const MAKES = [
  'Yamaha',
  'Honda',
  'Kawasaki',
  'Suzuki',
  'KTM',
  'Ducati',
  'BMW',
  'Triumph',
  'Aprilia',
  'Husqvarna',
  'Harley-Davidson',
  'Indian',
  'Royal Enfield',
  'Benelli',
  'Beta',
  'GasGas',
  'Sherco',
  'MV Agusta',
  'Moto Guzzi',
  'Piaggio',
  'Vespa',
  'Polaris',
  'Can-Am',
  'Arctic Cat',
  'Kymco',
  'SYM',
  'CFMoto',
  'Zero',
  'Bimota',
  'Norton',
];

const textArray = (values: readonly string[]) => sql.raw(`array[${values.map((v) => `'${v}'`).join(', ')}]`);

/** Gives fitment-seed.ts's catalogue a shop's words, in place (names, descriptions, brands, makes and models). */
export async function addWords(db: BenchSqlRunner): Promise<void> {
  await db.execute(
    sql`update brands set name = (${textArray(BRANDS)})[substring(slug from 7)::int] where substring(slug from 7)::int <= ${BRANDS.length}`,
  );
  await db.execute(sql`update vehicle_makes set name = (${textArray(MAKES)})[substring(name from 6)::int]`);
  await db.execute(sql`
    update vehicle_models m set name = upper(left(k.name, 2)) || (150 + 50 * split_part(m.name, '-', 2)::int)
    from vehicle_makes k where k.id = m.make_id`);
  await db.execute(sql`
    with numbered as (select id, row_number() over (order by created_at, id) as i from parts),
         fitted as (
           select distinct on (f.part_id) f.part_id, k.name as make, md.name as model
           from part_fitments f join vehicle_models md on md.id = f.model_id join vehicle_makes k on k.id = md.make_id
           order by f.part_id, f.year_from
         )
    update parts set
      name = left((${textArray(ADJECTIVES)})[1 + n.i % ${ADJECTIVES.length}] || ' ' || (${textArray(NOUNS)})[1 + (n.i / ${ADJECTIVES.length}) % ${NOUNS.length}], 20),
      description = lower((${textArray(ADJECTIVES)})[1 + n.i % ${ADJECTIVES.length}]) || ' ' || lower((${textArray(NOUNS)})[1 + (n.i / ${ADJECTIVES.length}) % ${NOUNS.length}])
        || coalesce(' for the ' || fitted.make || ' ' || fitted.model, ' for most bikes')
        || ', tested and boxed; fits as the original part, with fitting instructions.'
    from numbered n left join fitted on fitted.part_id = n.id
    where parts.id = n.id`);
  await db.execute(sql`vacuum analyze`);
}
