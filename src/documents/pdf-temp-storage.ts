// Multer storage engine for PDF uploads: streams each file to a temp file, hashing and counting on
// the way, and stops as soon as the first KiB shows no PDF header or the size passes the limit.
import type { Request } from 'express';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { type FileHandle, mkdir, open, readdir, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { StorageEngine } from 'multer';
import { PdfCheck } from './pdf-check.js';
import type { FileEnds } from './pdf-xref.js';

/** One checked upload, waiting in a temp file until the request is done. `sha256` is hex. */
export interface StoredUpload {
  fieldname: string;
  originalname: string;
  path: string;
  size: number;
  sha256: string;
  /** Fsynced and given `fileMode` before it was closed (PdfTempStorageOptions.durable). */
  durable?: boolean;
  /** The file's first and last bytes, for the structure check. */
  ends?: FileEnds;
  /** Set by the upload check: what makes the PDF active ("contains JavaScript (/OpenAction)"), or null. */
  activeContent?: string | null;
}

export interface PdfTempStorageOptions {
  dir: string;
  maxBytes: number;
  /**
   * Each file fsynced and given this mode while it is still open: a store that takes uploads over
   * (the local one) then only renames it, without opening it again.
   */
  durable?: { fileMode: number };
}

/** Never rejects: cleanup must not turn a finished response into an error. */
export async function removeTempFiles(files: Iterable<string | { path: string }>): Promise<void> {
  const paths = [...files].map((file) => (typeof file === 'string' ? file : file.path));
  // Temp files are plain files (unlink is one syscall, rm checks and retries). Most were renamed into the
  // store already: one look at the directory entry spares the thread pool a failing unlink and the
  // event loop the ENOENT error it would build.
  await Promise.allSettled(paths.filter((path) => existsSync(path)).map((path) => unlink(path)));
}

const TEMP_NAME = /^upload-[0-9a-f-]{36}\.pdf$/;

/** Removes temp files a crashed process left behind; nothing that old is still being written or used. */
export async function sweepStaleUploads(dir: string, olderThanMs: number): Promise<void> {
  const names = await readdir(dir).catch(() => []);
  const cutoff = Date.now() - olderThanMs;
  for (const name of names.filter((candidate) => TEMP_NAME.test(candidate))) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info && info.mtimeMs < cutoff) await rm(path, { force: true }).catch(() => undefined);
  }
}

export class PdfTempStorage implements StorageEngine {
  // Every temp file a request created, whatever multer later did with it, so that discard() can
  // remove them all when the response closes; `live` holds those of requests not yet discarded.
  private readonly byRequest = new WeakMap<Request, Set<string>>();
  private readonly closed = new WeakSet<Request>();
  private readonly live = new Set<string>();
  private createdWithExactMode = false;

  constructor(private readonly options: PdfTempStorageOptions) {}

  _handleFile(req: Request, file: Express.Multer.File, callback: (error?: unknown, info?: Partial<StoredUpload>) => void): void {
    this.receive(req, file).then(
      (upload) => callback(null, upload),
      (error: unknown) => callback(error),
    );
  }

  _removeFile(_req: Request, file: Express.Multer.File, callback: (error: Error | null) => void): void {
    void this.remove([file.path]).then(() => callback(null));
  }

  /** Removes every temp file of the request; a file finished after this is removed at once. */
  async discard(req: Request): Promise<void> {
    this.closed.add(req);
    await this.remove(this.byRequest.get(req) ?? []);
  }

  /** At shutdown: the files of requests that never got to close. */
  async discardAll(): Promise<void> {
    await this.remove(this.live);
  }

  private async remove(paths: Iterable<string>): Promise<void> {
    const list = [...paths];
    for (const path of list) this.live.delete(path);
    await removeTempFiles(list);
  }

  private async create(path: string): Promise<FileHandle> {
    const mode = this.options.durable?.fileMode;
    const handle = await createIn(this.options.dir, path, mode ?? 0o600);
    if (mode === undefined || this.createdWithExactMode) return handle;
    try {
      // The umask may take bits of the mode away: the first file shows whether it does here.
      if (((await handle.stat()).mode & 0o777) === mode) this.createdWithExactMode = true;
      else await handle.chmod(mode);
      return handle;
    } catch (error) {
      await handle.close();
      await unlink(path).catch(() => undefined);
      throw error;
    }
  }

  private track(req: Request, path: string): void {
    const paths = this.byRequest.get(req) ?? new Set<string>();
    paths.add(path);
    this.byRequest.set(req, paths);
    this.live.add(path);
  }

  private async receive(req: Request, file: Express.Multer.File): Promise<StoredUpload> {
    if (file.stream.destroyed || this.closed.has(req)) throw ended(file);
    const path = join(this.options.dir, `upload-${randomUUID()}.pdf`);
    // Created before anything can fail, so every cleanup below finds the file it removes.
    const handle = await this.create(path);
    this.track(req, path);
    // While the file was being opened, the part may have failed (busboy destroys it on a broken
    // body) or the response may already have been sent; then no event would come any more.
    if (file.stream.destroyed || this.closed.has(req)) {
      await handle.close();
      await this.remove([path]);
      throw ended(file);
    }
    const durable = this.options.durable;
    const upload = await new Promise<StoredUpload>((resolve, reject) => {
      const check = new PdfCheck(file.fieldname, this.options.maxBytes);
      // flush: fsync before the stream closes the file.
      const out = handle.createWriteStream({ flush: durable !== undefined });
      let failed = false;
      let finished = false;
      const fail = (error: Error): void => {
        if (failed) return;
        failed = true;
        // Stop writing but let busboy read on: multer drains the body and answers cleanly.
        file.stream.unpipe(check);
        file.stream.resume();
        check.destroy();
        out.destroy();
        void this.remove([path]).then(() => reject(error));
      };
      file.stream.on('error', fail);
      check.on('error', fail);
      out.on('error', fail);
      out.on('finish', () => (finished = true));
      out.on('close', () => {
        if (failed) return;
        if (!finished) return fail(new Error('the upload stream closed before the file was written'));
        resolve({
          fieldname: file.fieldname,
          originalname: file.originalname,
          path,
          size: check.size,
          sha256: check.sha256(),
          durable: durable !== undefined,
          ends: check.ends(),
        });
      });
      file.stream.pipe(check).pipe(out);
    });
    if (this.closed.has(req)) {
      await this.remove([path]);
      throw new Error('the response was already sent');
    }
    return upload;
  }
}

/** The folder is made when a file cannot be created without it: once, or again after something removed it. */
async function createIn(dir: string, path: string, mode: number): Promise<FileHandle> {
  try {
    return await open(path, 'wx', mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return open(path, 'wx', mode);
  }
}

function ended(file: Express.Multer.File): Error {
  return file.stream.errored ?? new Error('the upload ended before it could be stored');
}
