// The rate-limit counters all replicas share: one row per key in an UNLOGGED table, a fixed window that
// starts with the key's first point and is overwritten by the first point after it ends. Every call is one
// statement (one round trip); the callers decide how rarely they call (failures only, chunked claims).
// Our own rather than rate-limiter-flexible's RateLimiterPostgres: that one sends its own SQL on its own
// client (outside the SQL door and its declared statements) and has no claim of several points at once.
import { Injectable } from '@nestjs/common';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';

/** A key's window as PostgreSQL left it; `msLeft` is measured on the database's clock, so replicas' clocks need not agree. */
export interface Counter {
  key: string;
  points: number;
  msLeft: number;
}

/** A claim of points for one key: what it added, and the window's total after it. */
export interface Claim extends Counter {
  granted: number;
}

/** The window's values when the stored one is over (or the key is new), else the stored ones. */
const LIVE = 'c.window_ends_at > now()';
const RETURNING = `RETURNING key, points, granted, ceil(extract(epoch FROM window_ends_at - now()) * 1000)::int AS "msLeft"`;

const ADD = statement<Counter>(
  'rate_limits.add',
  `INSERT INTO rate_limit_counters AS c (key, points, granted, window_ends_at)
   SELECT k, $2::int, $2::int, now() + make_interval(secs => $3::int) FROM unnest($1::text[]) AS k ORDER BY k
   ON CONFLICT (key) DO UPDATE SET
     points = CASE WHEN ${LIVE} THEN c.points + excluded.points ELSE excluded.points END,
     granted = excluded.points,
     window_ends_at = CASE WHEN ${LIVE} THEN c.window_ends_at ELSE excluded.window_ends_at END
   ${RETURNING}`,
);

/** Up to $2 points, never past the limit $3: `granted` is what this claim took (0 when the window is spent). */
const CLAIM = statement<Claim>(
  'rate_limits.claim',
  `INSERT INTO rate_limit_counters AS c (key, points, granted, window_ends_at)
   VALUES ($1, LEAST($2::int, $3::int), LEAST($2::int, $3::int), now() + make_interval(secs => $4::int))
   ON CONFLICT (key) DO UPDATE SET
     points = CASE WHEN ${LIVE} THEN GREATEST(c.points, LEAST(c.points + $2::int, $3::int)) ELSE excluded.points END,
     granted = CASE WHEN ${LIVE} THEN GREATEST(c.points, LEAST(c.points + $2::int, $3::int)) - c.points ELSE excluded.points END,
     window_ends_at = CASE WHEN ${LIVE} THEN c.window_ends_at ELSE excluded.window_ends_at END
   ${RETURNING}`,
);

/** A new window of $2 seconds holding one point, whatever was there (a remembered fact, not a count). */
const SET = statement(
  'rate_limits.set',
  `INSERT INTO rate_limit_counters (key, points, granted, window_ends_at) VALUES ($1, 1, 1, now() + make_interval(secs => $2::int))
   ON CONFLICT (key) DO UPDATE SET points = 1, granted = 1, window_ends_at = excluded.window_ends_at`,
);

const READ = statement<Counter>(
  'rate_limits.read',
  `SELECT key, points, ceil(extract(epoch FROM window_ends_at - now()) * 1000)::int AS "msLeft"
   FROM rate_limit_counters WHERE key = ANY ($1::text[]) AND window_ends_at > now()`,
);

/** Rows deleted per statement of the sweep: short statements, no long lock on the table. */
const SWEEP_BATCH = 5_000;

const SWEEP = statement(
  'rate_limits.sweep',
  `DELETE FROM rate_limit_counters WHERE ctid = ANY (ARRAY(
     SELECT ctid FROM rate_limit_counters WHERE window_ends_at < now() LIMIT $1))`,
  { plan: 'custom' },
);

@Injectable()
export class RateLimitStore {
  constructor(private readonly sql: Sql) {}

  /** Adds `points` to each key's window of `seconds` (distinct keys; taken in key order, so concurrent calls do not deadlock). */
  add(keys: readonly string[], points: number, seconds: number): Promise<Counter[]> {
    return this.sql.rows(ADD, [keys, points, seconds]);
  }

  /** Takes up to `points` of the key's window of `seconds`, as many as `limit` leaves. */
  claim(key: string, points: number, limit: number, seconds: number): Promise<Claim> {
    return this.sql.one(CLAIM, [key, points, limit, seconds]);
  }

  /** Starts a new window of `seconds` for the key with one point. */
  async set(key: string, seconds: number): Promise<void> {
    await this.sql.affected(SET, [key, seconds]);
  }

  /** The keys whose window is running (an absent key has none). */
  read(keys: readonly string[]): Promise<Counter[]> {
    return this.sql.rows(READ, [keys]);
  }

  /** Deletes the rows of ended windows; returns how many. */
  async sweep(): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.sql.affected(SWEEP, [SWEEP_BATCH]);
      total += deleted;
      if (deleted < SWEEP_BATCH) return total;
    }
  }
}
