// `npm run migration:run`: applies pending migrations to the configured (or embedded) database.
import { loadConfig } from '../config/app.config.js';
import { connectDatabase } from './connect.js';
import { runMigrations } from './migrate.js';

const config = loadConfig();
const database = await connectDatabase(config, (line) => console.log(line));
try {
  const applied = await runMigrations(database.url);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'The schema is up to date.');
} finally {
  await database.stop();
}
