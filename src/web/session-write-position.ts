// With a read replica (DATABASE_READ_URL), a signed-in user reads their own writes: after every form the
// session keeps the primary's WAL position, and its read-only pages go to the standby only once the
// standby has replayed that position (WebPages.reads, src/database/sql/read-replica.ts).
import type { RequestHandler } from 'express';
import type { ReadReplica } from '../database/sql/read-replica.js';

declare module 'express-session' {
  interface SessionData {
    /** The primary's WAL position after this session's last POST (pg_current_wal_lsn()). */
    lastWritePosition?: string;
  }
}

/**
 * The position is read when the answer ends, before express-session saves the session (it saves in
 * its own wrapper of res.end, which this one calls): the redirect that follows a form reaches the
 * browser only with the position stored. Without a replica, nothing is mounted.
 */
export function rememberWritePosition(replica: ReadReplica): RequestHandler | undefined {
  if (!replica.configured) return undefined;
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
    res.end = ((...args: unknown[]) => {
      // A visitor's form (sign-in aside, which sets the user first) neither writes company data nor starts a session here.
      if (!req.session?.userId) return end(...args);
      replica.writePosition().then(
        (position) => {
          if (req.session) req.session.lastWritePosition = position;
          end(...args);
        },
        () => end(...args),
      );
      return res;
    }) as typeof res.end;
    next();
  };
}
