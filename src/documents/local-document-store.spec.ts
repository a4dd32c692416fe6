// LocalDocumentStore against a real temp folder: round trip, key refusal, atomic replacement.
// Also the key rules every store shares (assertDocumentKey).
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { assertDocumentKey, DocumentNotFoundError, InvalidDocumentKeyError } from './document-store.js';
import { DOCUMENT_FILE_MODE, LocalDocumentStore } from './local-document-store.js';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Every file below `dir`, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

describe(LocalDocumentStore.name, () => {
  let work: string;
  let root: string;
  let store: LocalDocumentStore;
  const key = `${randomUUID()}/invoices/${randomUUID()}.pdf`;

  beforeEach(async () => {
    work = await mkdtemp(join(tmpdir(), 'local-store-spec-'));
    root = join(work, 'documents');
    store = new LocalDocumentStore(root);
  });

  afterEach(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('takes an upload over: the temp file becomes the document, nothing else is left', async () => {
    const data = randomBytes(200 * 1024);
    const upload = join(work, 'upload.pdf');
    await writeFile(upload, data, { mode: 0o600 });
    await store.putUpload(key, upload, 'application/pdf');
    expect(await readAll(await store.openRead(key))).toEqual(data);
    expect(await filesUnder(work)).toEqual([`documents/${key}`]);
  });

  it('gives a taken-over upload the mode of a stored document, unless it is durable and has it already', async () => {
    const upload = join(work, 'upload.pdf');
    await writeFile(upload, 'x', { mode: 0o600 });
    await store.putUpload(key, upload, 'application/pdf');
    expect((await stat(join(root, key))).mode & 0o777).toBe(DOCUMENT_FILE_MODE);
    await writeFile(upload, 'y', { mode: 0o600 });
    await store.putUpload(key, upload, 'application/pdf', { durable: true });
    expect((await stat(join(root, key))).mode & 0o777).toBe(0o600);
    expect((await readFile(join(root, key))).toString()).toBe('y');
  });

  it('stores a file under its key in nested folders and reads it back', async () => {
    const bytes = randomBytes(300 * 1024);
    const source = join(work, 'upload.pdf');
    await writeFile(source, bytes);
    await store.put(key, source, 'application/pdf');
    expect(await store.exists(key)).toBe(true);
    expect(await readFile(join(root, key))).toEqual(bytes);
    expect(await readAll(await store.openRead(key))).toEqual(bytes);
    expect(await readFile(source)).toEqual(bytes); // the source stays: the caller removes its temp file
  });

  it('stores a buffer', async () => {
    await store.putBuffer(key, Buffer.from('%PDF-1.7 letter'), 'application/pdf');
    expect((await readAll(await store.openRead(key))).toString()).toBe('%PDF-1.7 letter');
  });

  it('says clearly when a key holds nothing', async () => {
    expect(await store.exists(key)).toBe(false);
    await expect(store.openRead(key)).rejects.toThrow(DocumentNotFoundError);
    await expect(store.openRead(key)).rejects.toThrow(`No document is stored under the key "${key}"`);
  });

  it('deletes idempotently', async () => {
    await store.putBuffer(key, Buffer.from('x'), 'application/pdf');
    await store.delete(key);
    await store.delete(key);
    await store.delete(`${randomUUID()}/never/stored.pdf`);
    expect(await store.exists(key)).toBe(false);
  });

  it('refuses keys that could leave the root or be odd', async () => {
    for (const bad of [
      '../escape.pdf',
      'a/../../b.pdf',
      '/etc/passwd',
      'a//b.pdf',
      'a/./b.pdf',
      'a\\b.pdf',
      'C:/x.pdf',
      'a/.hidden',
      'a/b c.pdf',
      'a/\u0000.pdf',
      'ü.pdf',
      '',
    ]) {
      await expect(store.putBuffer(bad, Buffer.from('x'), 'application/pdf')).rejects.toThrow(InvalidDocumentKeyError);
      await expect(store.openRead(bad)).rejects.toThrow(InvalidDocumentKeyError);
      await expect(store.exists(bad)).rejects.toThrow(InvalidDocumentKeyError);
      await expect(store.delete(bad)).rejects.toThrow(InvalidDocumentKeyError);
    }
    expect(await readdir(work)).toEqual([]);
  });

  it('replaces atomically and leaves no temp file behind', async () => {
    await store.putBuffer(key, Buffer.from('old version'), 'application/pdf');
    // A source that vanished fails mid-way: the old content stays whole, no temp file is left.
    await expect(store.put(key, join(work, 'missing.pdf'), 'application/pdf')).rejects.toThrow(/ENOENT/);
    expect((await readFile(join(root, key))).toString()).toBe('old version');

    const reads: Promise<Buffer>[] = [];
    const writes = Array.from({ length: 20 }, (_, i) => {
      reads.push(store.openRead(key).then(readAll));
      return store.putBuffer(key, Buffer.from(`version ${i} `.repeat(5000)), 'application/pdf');
    });
    await Promise.all(writes);
    // Readers see an old or a new file, never a half-written one.
    for (const seen of await Promise.all(reads)) {
      expect(seen.toString()).toMatch(/^(old version|(version \d+ )\2{4999})$/);
    }
    expect(await filesUnder(root)).toEqual([key]);
  });
});

describe(assertDocumentKey.name, () => {
  it('accepts the keys the service uses', () => {
    expect(() => assertDocumentKey(`${randomUUID()}/invoices/${randomUUID()}.pdf`)).not.toThrow();
    expect(() => assertDocumentKey(`${randomUUID()}/invoices/${randomUUID()}/invoice_attachment.pdf`)).not.toThrow();
  });

  it('refuses over-long keys', () => {
    expect(() => assertDocumentKey('a/'.repeat(300) + 'b')).toThrow(/1 to 512 characters/);
  });
});
