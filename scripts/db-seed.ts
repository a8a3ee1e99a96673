import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/open-database.ts';
import { seedDemoData } from '../src/server/db/seed.ts';

// Seeds the demo data into an empty database; a database with data is left alone.
const config = loadConfig();
const { handle, release } = await openDatabase(config);
try {
  const { seeded } = await seedDemoData(handle.db, config, console);
  if (!seeded) console.log('The database already holds data: nothing seeded.');
} finally {
  await handle.close();
  release();
}
