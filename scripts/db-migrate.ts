import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/open-database.ts';

// Applies the committed migrations to the configured database (DATABASE_URL, or PGlite under DATA_DIR).
const config = loadConfig();
const { handle, release } = await openDatabase(config);
await handle.close();
release();
console.log(`Migrations applied (${handle.driver}).`);
