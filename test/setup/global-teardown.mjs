import pg from 'pg';

export default async function globalTeardown() {
  const state = globalThis.__testDb;
  if (!state) return;
  if (state.stop) return state.stop();
  const admin = new pg.Client({ connectionString: state.adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${state.database} WITH (FORCE)`);
  await admin.end();
}
