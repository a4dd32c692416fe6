// Applies pending migrations under an advisory lock, so replicas starting together migrate once.
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source.js';

const MIGRATION_LOCK = 4_711_001;

export async function runMigrations(url: string): Promise<string[]> {
  const db = new DataSource(dataSourceOptions(url, 'unbounded'));
  await db.initialize();
  try {
    await db.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      const applied = await db.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await db.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await db.destroy();
  }
}
