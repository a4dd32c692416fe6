// Replicas started at the same moment on a new database all come up (issue 22). Before the job queue's
// definitions were serialized, two of three crashed in four of five tries with `deadlock detected`
// (40P01) inside pg-boss's create_queue: each replica created the same queues' partitions at once.
// Three instances of the application in this process, each with its own pools and its own pg-boss,
// do at start-up what three processes do (migrations under their lock, then every queue definition);
// in processes of their own (`npm start` ×3) the same test took four times as long and found the same.
import type { INestApplication } from '@nestjs/common';
import pg from 'pg';
import request from 'supertest';
import { createApp } from '../../src/app.setup.js';
import { runMigrations } from '../../src/database/migrate.js';
import { reclaimPassport, testConfig, testDatabaseUrl } from '../support/test-app.js';

const REPLICAS = 3;
const TRIES = 3;

function databaseUrl(name: string): string {
  const url = new URL(testDatabaseUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl('postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function startReplica(url: string): Promise<INestApplication> {
  await runMigrations(url);
  const app = await createApp(testConfig(), url);
  await app.init();
  return app;
}

describe('replicas started together on a new database', () => {
  for (let attempt = 1; attempt <= TRIES; attempt++) {
    it(`all ${REPLICAS} come up and serve (try ${attempt} of ${TRIES})`, async () => {
      const name = `receivables_replicas_${process.pid}_${attempt}`;
      await admin(async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${name}`);
        await client.query(`CREATE DATABASE ${name}`);
      });
      const outcomes = await Promise.allSettled(Array.from({ length: REPLICAS }, () => startReplica(databaseUrl(name))));
      const apps = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
      try {
        expect(outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [String(outcome.reason)] : []))).toEqual([]);
        for (const app of apps) {
          await reclaimPassport(app);
          await request(app.getHttpServer()).get('/health/ready').expect(200);
        }
        // Every queue exists once: what each replica defined is there, and nothing twice.
        const queues = await admin(async () => {
          const client = new pg.Client({ connectionString: databaseUrl(name) });
          await client.connect();
          try {
            return (
              await client.query<{ name: string; count: number }>(`SELECT name, count(*)::int AS count FROM pgboss.queue GROUP BY name`)
            ).rows;
          } finally {
            await client.end();
          }
        });
        expect(queues.length).toBeGreaterThan(5);
        expect(queues.filter((queue) => queue.count !== 1)).toEqual([]);
      } finally {
        await Promise.all(apps.map((app) => app.close()));
        await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      }
    }, 120_000);
  }
});
