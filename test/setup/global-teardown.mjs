import pg from 'pg';

export default async function globalTeardown() {
  const state = globalThis.__testDb;
  if (!state) return;
  if (state.stop) return state.stop();
  const admin = new pg.Client({ connectionString: state.adminUrl });
  await admin.connect();
  for (const database of state.databases) await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.end();
}
