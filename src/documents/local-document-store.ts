// Documents as files under `<DATA_DIR>/documents/<key>`, written atomically: a hidden temp file in
// the target folder (or a checked upload's temp file), fsync, rename, fsync of the folder; a crash
// leaves the old file or the new one.
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { type FileHandle, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { assertDocumentKey, DocumentNotFoundError, DocumentStore } from './document-store.js';

/** The mode of every stored document. */
export const DOCUMENT_FILE_MODE = 0o640;

export class LocalDocumentStore extends DocumentStore {
  constructor(private readonly root: string) {
    super();
  }

  async put(key: string, sourcePath: string, _contentType: string): Promise<void> {
    await this.writeAtomically(key, async (target) => {
      // Chunk by chunk, so a large upload never sits in memory whole. writeFile on a handle appends at
      // its position and loops over short writes, which a bare handle.write does not.
      for await (const chunk of createReadStream(sourcePath)) await target.writeFile(chunk as Buffer);
    });
  }

  /**
   * The upload's temp file becomes the document: fsync, rename into place, fsync of the folder, as
   * writeAtomically does, without reading and writing the bytes once more (nor opening the file at all
   * when the upload is durable already). Across file systems (EXDEV) the bytes are copied by put.
   */
  override async putUpload(key: string, sourcePath: string, contentType: string, options: { durable?: boolean } = {}): Promise<void> {
    const path = this.pathOf(key);
    const folder = dirname(path);
    await mkdir(folder, { recursive: true });
    if (!options.durable) await makeDurable(sourcePath);
    try {
      await rename(sourcePath, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EXDEV') return this.put(key, sourcePath, contentType);
      throw error;
    }
    await syncFolder(folder);
  }

  async putBuffer(key: string, data: Buffer, _contentType: string): Promise<void> {
    await this.writeAtomically(key, async (target) => {
      await target.writeFile(data);
    });
  }

  async openRead(key: string): Promise<Readable> {
    const path = this.pathOf(key);
    try {
      // Opened here rather than lazily by the stream, so a missing key fails this call.
      const handle = await open(path, 'r');
      return handle.createReadStream();
    } catch (error) {
      if (isMissing(error)) throw new DocumentNotFoundError(key);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  private pathOf(key: string): string {
    assertDocumentKey(key);
    return join(this.root, key);
  }

  private async writeAtomically(key: string, write: (target: FileHandle) => Promise<void>): Promise<void> {
    const path = this.pathOf(key);
    const folder = dirname(path);
    await mkdir(folder, { recursive: true });
    const temp = join(folder, `.${basename(path)}.${randomUUID()}.tmp`);
    const handle = await open(temp, 'wx', DOCUMENT_FILE_MODE);
    try {
      await write(handle);
      await handle.sync();
      await handle.close();
      await rename(temp, path);
    } catch (error) {
      await handle.close().catch(() => undefined);
      await rm(temp, { force: true });
      throw error;
    }
    await syncFolder(folder);
  }
}

async function makeDurable(path: string): Promise<void> {
  const file = await open(path, 'r');
  try {
    await file.sync();
    await file.chmod(DOCUMENT_FILE_MODE);
  } finally {
    await file.close();
  }
}

/** Makes the rename itself durable: the new directory entry reaches the disk. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
