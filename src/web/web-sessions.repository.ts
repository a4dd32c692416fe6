// The rows of the web app's server-side sessions (table web_sessions). A session names no company
// column: who signed in is inside `sess`, and every page loads the user and company afresh from it.
import { Injectable } from '@nestjs/common';
import { Sql } from '../database/sql/sql.js';
import { statement } from '../database/sql/statement.js';

const GET = statement<{ sess: Record<string, unknown> }>(
  'web.session_get',
  'SELECT sess FROM web_sessions WHERE sid = $1 AND expires_at > now()',
);
const SET = statement(
  'web.session_set',
  `INSERT INTO web_sessions (sid, sess, expires_at) VALUES ($1, $2, $3)
   ON CONFLICT (sid) DO UPDATE SET sess = EXCLUDED.sess, expires_at = EXCLUDED.expires_at`,
);
const TOUCH = statement('web.session_touch', 'UPDATE web_sessions SET expires_at = $2 WHERE sid = $1 AND expires_at > now()');
const DESTROY = statement('web.session_destroy', 'DELETE FROM web_sessions WHERE sid = $1');
const PRUNE = statement('web.session_prune', 'DELETE FROM web_sessions WHERE expires_at <= now()');

@Injectable()
export class WebSessionsRepository {
  constructor(private readonly sql: Sql) {}

  async get(sid: string): Promise<Record<string, unknown> | undefined> {
    return (await this.sql.first(GET, [sid]))?.sess;
  }

  async set(sid: string, sess: object, expiresAt: Date): Promise<void> {
    await this.sql.run(SET, [sid, JSON.stringify(sess), expiresAt]);
  }

  async touch(sid: string, expiresAt: Date): Promise<void> {
    await this.sql.run(TOUCH, [sid, expiresAt]);
  }

  async destroy(sid: string): Promise<void> {
    await this.sql.run(DESTROY, [sid]);
  }

  async prune(): Promise<number> {
    return this.sql.affected(PRUNE);
  }
}
