// express-session's store for the web app: sessions live in PostgreSQL (web_sessions) and reach it
// through the one SQL door, so every replica sees the same sessions and a sign-out ends one everywhere.
import session, { type SessionData } from 'express-session';
import type { WebSessionsRepository } from './web-sessions.repository.js';

type Callback<T = void> = (error?: unknown, value?: T) => void;

/** Expired rows are deleted at most this often (reads never return them anyway). */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

export class PostgresSessionStore extends session.Store {
  private lastPrune = 0;

  constructor(
    private readonly sessions: WebSessionsRepository,
    private readonly idleMs: number,
  ) {
    super();
  }

  override get(sid: string, callback: Callback<SessionData | null>): void {
    this.sessions.get(sid).then(
      (sess) => callback(undefined, (sess as unknown as SessionData | undefined) ?? null),
      (error: unknown) => callback(error),
    );
  }

  override set(sid: string, sess: SessionData, callback?: Callback): void {
    this.prune();
    this.sessions.set(sid, sess, this.expiryOf(sess)).then(
      () => callback?.(),
      (error: unknown) => callback?.(error),
    );
  }

  override touch(sid: string, sess: SessionData, callback?: Callback): void {
    this.sessions.touch(sid, this.expiryOf(sess)).then(
      () => callback?.(),
      (error: unknown) => callback?.(error),
    );
  }

  override destroy(sid: string, callback?: Callback): void {
    this.sessions.destroy(sid).then(
      () => callback?.(),
      (error: unknown) => callback?.(error),
    );
  }

  private expiryOf(sess: SessionData): Date {
    const expires = sess.cookie?.expires;
    return expires ? new Date(expires) : new Date(Date.now() + this.idleMs);
  }

  private prune(): void {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    this.sessions.prune().catch(() => (this.lastPrune = 0));
  }
}
