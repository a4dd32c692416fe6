// S3DocumentStore against a real S3 server on 127.0.0.1 (@20minutes/s3rver: SigV4-checked
// requests, multipart uploads, objects on disk): round trip, multipart, missing keys, deletes.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import S3rver from '@20minutes/s3rver';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { S3StoreConfig } from '../config/documents.config.js';
import { DocumentNotFoundError, DocumentStoreUnavailableError, InvalidDocumentKeyError } from './document-store.js';
import { createS3Client, S3DocumentStore } from './s3-document-store.js';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

describe(S3DocumentStore.name, () => {
  let work: string;
  let server: S3rver;
  let config: S3StoreConfig;
  let store: S3DocumentStore;
  const key = () => `${randomUUID()}/invoices/${randomUUID()}.pdf`;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 's3-store-spec-'));
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: join(work, 's3'),
      configureBuckets: [{ name: 'documents' }],
    });
    const { port } = await server.run();
    config = {
      kind: 's3',
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      bucket: 'documents',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    };
    store = new S3DocumentStore(config);
  });

  afterAll(async () => {
    store.onModuleDestroy();
    await server.close();
    await rm(work, { recursive: true, force: true });
  });

  it('streams a file up and back', async () => {
    const bytes = randomBytes(200 * 1024);
    const source = join(work, 'upload.pdf');
    await writeFile(source, bytes);
    const k = key();
    await store.put(k, source, 'application/pdf');
    expect(await store.exists(k)).toBe(true);
    expect(sha256(await readAll(await store.openRead(k)))).toBe(sha256(bytes));
  });

  it('uploads a file over the part size as a multipart upload', async () => {
    const bytes = randomBytes(12 * 1024 * 1024 + 123);
    const source = join(work, 'large.pdf');
    await writeFile(source, bytes);
    const client = createS3Client(config);
    const commands: string[] = [];
    client.middlewareStack.add(
      (next, context) => (args) => {
        commands.push(String(context.commandName));
        return next(args);
      },
      { step: 'initialize' },
    );
    const k = key();
    await new S3DocumentStore(config, client).put(k, source, 'application/pdf');
    expect(commands).toEqual([
      'CreateMultipartUploadCommand',
      ...Array<string>(3).fill('UploadPartCommand'),
      'CompleteMultipartUploadCommand',
    ]);
    client.destroy();
    expect(sha256(await readAll(await store.openRead(k)))).toBe(sha256(bytes));
  });

  it('stores a buffer and replaces what was there', async () => {
    const k = key();
    await store.putBuffer(k, Buffer.from('first'), 'application/pdf');
    await store.putBuffer(k, Buffer.from('%PDF-1.7 second'), 'application/pdf');
    expect((await readAll(await store.openRead(k))).toString()).toBe('%PDF-1.7 second');
  });

  it('says clearly when a key holds nothing', async () => {
    const k = key();
    expect(await store.exists(k)).toBe(false);
    await expect(store.openRead(k)).rejects.toThrow(DocumentNotFoundError);
  });

  it('deletes idempotently', async () => {
    const k = key();
    await store.putBuffer(k, Buffer.from('x'), 'application/pdf');
    await store.delete(k);
    await store.delete(k);
    expect(await store.exists(k)).toBe(false);
  });

  it('refuses odd keys before talking to the server', async () => {
    await expect(store.putBuffer('../x.pdf', Buffer.from('x'), 'application/pdf')).rejects.toThrow(InvalidDocumentKeyError);
    await expect(store.exists('/abs.pdf')).rejects.toThrow(InvalidDocumentKeyError);
  });

  it('reports wrong credentials instead of treating them as a missing key', async () => {
    const wrong = new S3DocumentStore({ ...config, secretAccessKey: 'wrong' });
    await expect(wrong.putBuffer(key(), Buffer.from('x'), 'application/pdf')).rejects.toThrow(/signature/i);
    wrong.onModuleDestroy();
  });

  // The API answers these with 503 and Retry-After (src/http/problem.filter.ts), not with a 500.
  it('calls a store that answers 503, or cannot be reached, unavailable', async () => {
    const slowDown: Server = createServer((_req, res) => {
      res.writeHead(503, { 'Content-Type': 'application/xml' });
      res.end('<?xml version="1.0"?><Error><Code>ServiceUnavailable</Code><Message>Please reduce your request rate.</Message></Error>');
    });
    await new Promise<void>((resolve) => slowDown.listen(0, '127.0.0.1', resolve));
    const { port } = slowDown.address() as AddressInfo;
    const busy = new S3DocumentStore({ ...config, endpoint: `http://127.0.0.1:${port}` });
    try {
      await expect(busy.putBuffer(key(), Buffer.from('x'), 'application/pdf')).rejects.toThrow(DocumentStoreUnavailableError);
      await expect(busy.openRead(key())).rejects.toThrow(DocumentStoreUnavailableError);
    } finally {
      busy.onModuleDestroy();
      await new Promise((resolve) => slowDown.close(resolve));
    }
    const away = new S3DocumentStore({ ...config, endpoint: `http://127.0.0.1:${port}` });
    await expect(away.exists(key())).rejects.toThrow(DocumentStoreUnavailableError);
    away.onModuleDestroy();
  });
});
