// The document store port: where invoice PDFs and generated letters live, by key.
// One abstract class (also the Nest injection token) with a local-folder and an S3 implementation.
import type { Readable } from 'node:stream';

export abstract class DocumentStore {
  /** Streams a local file (e.g. a checked upload) into the store under `key`, replacing what was there. */
  abstract put(key: string, sourcePath: string, contentType: string): Promise<void>;
  abstract putBuffer(key: string, data: Buffer, contentType: string): Promise<void>;
  /**
   * Stores a checked upload's temp file under `key` when the caller no longer needs the file: a store
   * may take it over instead of copying it (the local store renames it into place when it is on the
   * same file system). The caller still removes `sourcePath` afterwards; it may be gone by then.
   * `durable`: the file is fsynced already and has the mode of a stored document (DOCUMENT_FILE_MODE).
   */
  putUpload(key: string, sourcePath: string, contentType: string, _options: { durable?: boolean } = {}): Promise<void> {
    return this.put(key, sourcePath, contentType);
  }
  /** Throws DocumentNotFoundError when nothing is stored under `key`. */
  abstract openRead(key: string): Promise<Readable>;
  /** Deleting a key that does not exist is not an error. */
  abstract delete(key: string): Promise<void>;
  abstract exists(key: string): Promise<boolean>;
}

export class DocumentNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No document is stored under the key "${key}"`);
    this.name = 'DocumentNotFoundError';
  }
}

/** The store answered with a fault of its own (5xx) or could not be reached: the request may be retried. */
export class DocumentStoreUnavailableError extends Error {
  constructor(override readonly cause: unknown) {
    super(`The document store is not available: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'DocumentStoreUnavailableError';
  }
}

export class InvalidDocumentKeyError extends Error {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`Invalid document key "${key}": ${reason}`);
    this.name = 'InvalidDocumentKeyError';
  }
}

// A segment starts with a letter or digit, so ".", ".." and hidden names (the local store's temp
// files) can never be keys; no backslash, colon or control character survives into a path.
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const MAX_KEY_LENGTH = 512;

/** Keys look like `<company uuid>/invoices/<uuid>.pdf`: relative, slash-separated, plain characters. */
export function assertDocumentKey(key: string): void {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new InvalidDocumentKeyError(key, `must be 1 to ${MAX_KEY_LENGTH} characters long`);
  }
  if (key.startsWith('/')) throw new InvalidDocumentKeyError(key, 'must be relative');
  for (const segment of key.split('/')) {
    if (segment === '..' || segment === '.') throw new InvalidDocumentKeyError(key, 'must not contain "." or ".." segments');
    if (!SEGMENT.test(segment)) {
      throw new InvalidDocumentKeyError(
        key,
        'each part between slashes must start with a letter or digit and use only letters, digits, ".", "_" and "-"',
      );
    }
  }
}
