// Documents as objects in an S3-compatible bucket (AWS, MinIO, Ceph, R2, ...), for several replicas.
// Uploads are streamed as multipart uploads; reads are streamed from the response body.
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { OnModuleDestroy } from '@nestjs/common';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { S3StoreConfig } from '../config/documents.config.js';
import { assertDocumentKey, DocumentNotFoundError, DocumentStore, DocumentStoreUnavailableError } from './document-store.js';

// The smallest part S3 allows. Upload buffers one part per queue slot, so a file of any size costs
// at most PART_SIZE * QUEUE_SIZE of memory while parts stay retryable.
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;

export function createS3Client(config: S3StoreConfig): S3Client {
  return new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // The SDK's default flexible checksums (aws-chunked trailers) are not understood by many
    // S3-compatible servers; send them only where the API demands them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export class S3DocumentStore extends DocumentStore implements OnModuleDestroy {
  private readonly bucket: string;

  constructor(
    config: S3StoreConfig,
    private readonly client: S3Client = createS3Client(config),
  ) {
    super();
    this.bucket = config.bucket;
  }

  async put(key: string, sourcePath: string, contentType: string): Promise<void> {
    assertDocumentKey(key);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: createReadStream(sourcePath), ContentType: contentType },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    await upload.done().catch(rethrowUnavailable);
  }

  async putBuffer(key: string, data: Buffer, contentType: string): Promise<void> {
    assertDocumentKey(key);
    await this.client
      .send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: data, ContentType: contentType, ContentLength: data.length }))
      .catch(rethrowUnavailable);
  }

  async openRead(key: string): Promise<Readable> {
    assertDocumentKey(key);
    try {
      const { Body } = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!(Body instanceof Readable)) throw new Error(`S3 returned no readable body for "${key}"`);
      return Body;
    } catch (error) {
      if (isNotFound(error)) throw new DocumentNotFoundError(key);
      return rethrowUnavailable(error);
    }
  }

  async delete(key: string): Promise<void> {
    assertDocumentKey(key);
    // S3 answers 204 for a missing key too, which makes this idempotent.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })).catch(rethrowUnavailable);
  }

  async exists(key: string): Promise<boolean> {
    assertDocumentKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      return rethrowUnavailable(error);
    }
  }

  onModuleDestroy(): void {
    this.client.destroy();
  }
}

function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);
}

// Socket-level failures of the SDK's HTTP handler (the error has no S3 response behind it).
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * A server fault of the store (S3's 500, 503 SlowDown/ServiceUnavailable) or a store out of reach becomes
 * DocumentStoreUnavailableError, which the API answers with 503 and Retry-After (a 500 would tell the
 * client its request was wrong or our code broken); a client fault (403, 400) stays what it is.
 */
function rethrowUnavailable(error: unknown): never {
  if (error instanceof S3ServiceException) {
    if (error.$fault === 'server' || (error.$metadata.httpStatusCode ?? 0) >= 500) throw new DocumentStoreUnavailableError(error);
    throw error;
  }
  const { code, name, message } = (error ?? {}) as { code?: string; name?: string; message?: string };
  // The SDK's retry step wraps an error of another realm (jest's test VM) into a plain Error whose message
  // is all that is left of the code.
  const codeInMessage = /\b(E[A-Z_]+)\b/.exec(message ?? '')?.[1];
  if (NETWORK_CODES.has(code ?? '') || NETWORK_CODES.has(codeInMessage ?? '') || name === 'TimeoutError') {
    throw new DocumentStoreUnavailableError(error);
  }
  throw error;
}
