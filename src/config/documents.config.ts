// Typed configuration of the document store (local folder or S3-compatible bucket) and of uploads.
// Read once at start like app.config.ts; the S3 secret is sensitive and never logged.
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError } from './config-error.js';

export interface LocalStoreConfig {
  kind: 'local';
  /** Root folder of the stored documents: `<DATA_DIR>/documents`. */
  dir: string;
}

export interface S3StoreConfig {
  kind: 's3';
  /** Undefined means AWS itself; set for MinIO, Ceph, R2 and other S3-compatible servers. */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  /** Sensitive. */
  secretAccessKey: string;
  forcePathStyle: boolean;
}

export type DocumentStoreConfig = LocalStoreConfig | S3StoreConfig;

export type DocumentsConfig = DocumentStoreConfig & {
  /** Largest accepted upload per file, in MiB. */
  maxUploadMb: number;
  /** Where uploads are streamed before they are checked and stored. */
  uploadDir: string;
};

type Env = Record<string, string | undefined>;

const MAX_UPLOAD_MB_CEILING = 1024;

export function loadDocumentsConfig(env: Env = process.env, dataDir: string): DocumentsConfig {
  const upload = {
    maxUploadMb: maxUploadMb(env.MAX_UPLOAD_MB),
    uploadDir: resolve(env.UPLOAD_TMP_DIR || join(tmpdir(), 'receivables-uploads')),
  };
  const kind = env.DOCUMENT_STORE || 'local';
  if (kind === 'local') return { kind, dir: join(resolve(dataDir), 'documents'), ...upload };
  if (kind === 's3') return { ...s3Config(env), ...upload };
  throw new ConfigError(`DOCUMENT_STORE must be local or s3, got "${kind}"`);
}

function maxUploadMb(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 20;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > MAX_UPLOAD_MB_CEILING) {
    throw new ConfigError(`MAX_UPLOAD_MB must be a number of MiB above 0 and at most ${MAX_UPLOAD_MB_CEILING}, got "${raw}"`);
  }
  return value;
}

function s3Config(env: Env): S3StoreConfig {
  const endpoint = env.S3_ENDPOINT || undefined;
  if (endpoint !== undefined && !isHttpUrl(endpoint)) {
    throw new ConfigError(`S3_ENDPOINT must be an http(s) URL, got "${endpoint}"`);
  }
  const missing: string[] = [];
  const need = (value: string | undefined, description: string): string => {
    if (!value) missing.push(description);
    return value ?? '';
  };
  // S3-compatible servers ignore the region but the signature needs one; AWS itself does not.
  const region = need(env.S3_REGION || (endpoint ? 'us-east-1' : undefined), 'S3_REGION (or S3_ENDPOINT for an S3-compatible server)');
  const bucket = need(env.S3_BUCKET, 'S3_BUCKET');
  const accessKeyId = need(env.S3_ACCESS_KEY_ID, 'S3_ACCESS_KEY_ID');
  const secretAccessKey = need(env.S3_SECRET_ACCESS_KEY, 'S3_SECRET_ACCESS_KEY');
  if (missing.length > 0) throw new ConfigError(`DOCUMENT_STORE=s3 needs: ${missing.join(', ')}`);
  return {
    kind: 's3',
    endpoint,
    region,
    bucket,
    accessKeyId,
    secretAccessKey,
    // Most self-hosted S3 servers have no per-bucket DNS names, so path style is their default.
    forcePathStyle: flag(env.S3_FORCE_PATH_STYLE, 'S3_FORCE_PATH_STYLE', endpoint !== undefined),
  };
}

function isHttpUrl(raw: string): boolean {
  return URL.canParse(raw) && /^https?:$/.test(new URL(raw).protocol);
}

function flag(raw: string | undefined, name: string, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (/^(true|1|yes)$/i.test(raw)) return true;
  if (/^(false|0|no)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

export const DOCUMENTS_CONFIG = Symbol('DOCUMENTS_CONFIG');
