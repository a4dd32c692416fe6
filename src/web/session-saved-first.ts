// What a form keeps in the session reaches the store before the browser can ask for the next page.
//
// express-session stores a changed session when the answer ends, but it sends the headers (and all of the
// body but its last byte) before the store has answered. A browser follows a 303 on its headers alone: the
// page after the redirect was read with the session as it was before the form, and its notice or the
// language just chosen was missing (CI lost "Die Einladung … wurde verschickt." that way;
// test/web/session-redirect). A redirect therefore waits until the session is stored. Any other answer is
// read to its end, whose last byte express-session holds back until the store has answered.
//
// With a read replica (DATABASE_READ_URL), a signed-in user reads their own writes: after every form the
// session keeps the primary's WAL position, and its read-only pages go to the standby only once the
// standby has replayed that position (WebPages.reads, src/database/sql/read-replica.ts).
import type { Request, RequestHandler } from 'express';
import type { ReadReplica } from '../database/sql/read-replica.js';
import { save } from './web-pages.js';

declare module 'express-session' {
  interface SessionData {
    /** The primary's WAL position after this session's last POST (pg_current_wal_lsn()). */
    lastWritePosition?: string;
  }
}

/** Mounted after express-session, so that its end wrapper (which stores the session) runs inside this one's. */
export function saveSessionFirst(replica: ReadReplica): RequestHandler {
  return (req, res, next) => {
    const form = req.method !== 'GET' && req.method !== 'HEAD';
    const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
    const redirect = res.redirect.bind(res) as (...args: unknown[]) => void;
    let positioned = false;
    const position = async () => {
      positioned = true;
      // A visitor's form (sign-in aside, which sets the user first) writes no company data.
      if (!form || !replica.configured || !req.session?.userId) return;
      // Unknown (the primary did not answer): the last one stays, and the answer goes out all the same.
      const lsn = await replica.writePosition().catch(() => undefined);
      if (lsn) req.session.lastWritePosition = lsn;
    };
    res.redirect = (...args: unknown[]) => {
      position()
        .then(() => (kept(req) ? save(req) : undefined))
        .then(() => redirect(...args), next);
    };
    if (form && replica.configured) {
      res.end = ((...args: unknown[]) => {
        if (positioned) return end(...args);
        void position().then(() => end(...args));
        return res;
      }) as typeof res.end;
    }
    next();
  };
}

/** A session worth storing: a signed-in user's, or a visitor's with the form binding and their language (never an empty one). */
function kept(req: Request): boolean {
  return Boolean(req.session && (req.session.userId || req.session.visitor));
}
