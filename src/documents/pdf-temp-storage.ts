// Multer storage engine for PDF uploads: streams each file to a temp file, hashing and counting on
// the way, and stops as soon as the first KiB shows no PDF header or the size passes the limit.
import type { Request } from 'express';
import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { StorageEngine } from 'multer';
import { PdfCheck } from './pdf-check.js';

/** One checked upload, waiting in a temp file until the request is done. `sha256` is hex. */
export interface StoredUpload {
  fieldname: string;
  originalname: string;
  path: string;
  size: number;
  sha256: string;
}

export interface PdfTempStorageOptions {
  dir: string;
  maxBytes: number;
}

/** Never rejects: cleanup must not turn a finished response into an error. */
export async function removeTempFiles(files: Iterable<string | { path: string }>): Promise<void> {
  const paths = [...files].map((file) => (typeof file === 'string' ? file : file.path));
  await Promise.allSettled(paths.map((path) => rm(path, { force: true })));
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

  constructor(private readonly options: PdfTempStorageOptions) {}

  _handleFile(req: Request, file: Express.Multer.File, callback: (error?: unknown, info?: Partial<StoredUpload>) => void): void {
    mkdir(this.options.dir, { recursive: true, mode: 0o700 })
      .then(() => this.receive(req, file))
      .then(
        (upload) => callback(null, upload),
        (error: unknown) => callback(error),
      );
  }

  _removeFile(_req: Request, file: Express.Multer.File, callback: (error: Error | null) => void): void {
    this.remove([file.path]).then(() => callback(null));
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
    const handle = await open(path, 'wx', 0o600);
    this.track(req, path);
    // While the file was being opened, the part may have failed (busboy destroys it on a broken
    // body) or the response may already have been sent; then no event would come any more.
    if (file.stream.destroyed || this.closed.has(req)) {
      await handle.close();
      await this.remove([path]);
      throw ended(file);
    }
    const upload = await new Promise<StoredUpload>((resolve, reject) => {
      const check = new PdfCheck(file.fieldname, this.options.maxBytes);
      const out = handle.createWriteStream();
      let failed = false;
      let finished = false;
      const fail = (error: unknown): void => {
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
        resolve({ fieldname: file.fieldname, originalname: file.originalname, path, size: check.size, sha256: check.sha256() });
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

function ended(file: Express.Multer.File): Error {
  return file.stream.errored ?? new Error('the upload ended before it could be stored');
}
