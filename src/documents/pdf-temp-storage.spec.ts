// PdfTempStorage on its own, under plain express + multer: it gives up on a non-PDF after the first
// KiB while the client is still sending, and enforces its own size limit.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import express, { type NextFunction, type Request, type Response } from 'express';
import multer from 'multer';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../common/errors.js';
import { PdfTempStorage, removeTempFiles, type StoredUpload } from './pdf-temp-storage.js';

type Outcome = { error?: unknown; upload?: Partial<StoredUpload> };

/** Records what the engine reported, as multer sees it. */
class RecordingStorage extends PdfTempStorage {
  readonly outcomes: Outcome[] = [];

  override _handleFile(req: Request, file: Express.Multer.File, callback: (error?: unknown, info?: Partial<StoredUpload>) => void): void {
    super._handleFile(req, file, (error, upload) => {
      this.outcomes.push({ error, upload });
      callback(error, upload);
    });
  }
}

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200 && !(await condition()); i++) await new Promise((r) => setTimeout(r, 10));
}

describe(PdfTempStorage.name, () => {
  let dir: string;
  let storage: RecordingStorage;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pdf-temp-storage-spec-'));
    storage = new RecordingStorage({ dir, maxBytes: 64 * 1024 });
    const app = express();
    app.post('/', multer({ storage }).single('invoice'), (_req: Request, res: Response) => void res.status(201).end());
    app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
      res.status(error instanceof AppError ? error.status : 500).json({ code: error instanceof AppError ? error.code : 'other' });
    });
    server = createServer(app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  /** Starts a multipart upload of `declared` bytes and sends only `head` of it. */
  function startUpload(head: Buffer, declared: number) {
    const boundary = 'spec-boundary';
    const preamble = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="invoice"; filename="r.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': preamble.length + declared + boundary.length + 8,
      },
    });
    const status = new Promise<number>((resolve, reject) => {
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
    });
    req.write(Buffer.concat([preamble, head]));
    const finish = (rest: Buffer) => req.end(Buffer.concat([rest, Buffer.from(`\r\n--${boundary}--\r\n`)]));
    return { status, finish };
  }

  it('gives up on a file without a PDF header after the first KiB, before the rest arrives', async () => {
    storage.outcomes.length = 0;
    const total = 5 * 1024 * 1024;
    const upload = startUpload(Buffer.alloc(2048, 'A'), total);
    await until(() => storage.outcomes.length > 0);
    // 2 KiB of 5 MiB sent: the engine has already answered, and the temp file is gone.
    expect(storage.outcomes).toEqual([{ error: expect.objectContaining({ code: 'document.not_pdf' }), upload: undefined }]);
    expect(await readdir(dir)).toEqual([]);
    upload.finish(Buffer.alloc(total - 2048, 'A'));
    expect(await upload.status).toBe(415);
  });

  it('enforces its own size limit while streaming', async () => {
    storage.outcomes.length = 0;
    const total = 200 * 1024;
    const upload = startUpload(Buffer.from('%PDF-1.7\n'), total);
    upload.finish(Buffer.alloc(total - 9, 'A'));
    expect(await upload.status).toBe(413);
    expect(storage.outcomes).toEqual([{ error: expect.objectContaining({ code: 'document.too_large' }), upload: undefined }]);
    await until(async () => (await readdir(dir)).length === 0);
    expect(await readdir(dir)).toEqual([]);
  });

  it('makes its folder again when something removed it', async () => {
    storage.outcomes.length = 0;
    await rm(dir, { recursive: true, force: true });
    const upload = startUpload(Buffer.from('%PDF-1.7\n'), 1024);
    upload.finish(Buffer.alloc(1024 - 9, 'A'));
    expect(await upload.status).toBe(201);
    expect(storage.outcomes).toEqual([{ error: null, upload: expect.objectContaining({ size: 1024, durable: false }) }]);
    await removeTempFiles([storage.outcomes[0].upload!.path!]);
    expect(await readdir(dir)).toEqual([]);
  });
});
