// loadDocumentsConfig (src/config/documents.config.ts): defaults, S3 settings and what it refuses.
// Kept here with the documents specs; the module picks the store from this configuration.
import { describe, expect, it } from '@jest/globals';
import { join, resolve } from 'node:path';
import { ConfigError } from '../config/app.config.js';
import { loadDocumentsConfig } from '../config/documents.config.js';
import { createDocumentStore } from './documents.module.js';
import { LocalDocumentStore } from './local-document-store.js';
import { S3DocumentStore } from './s3-document-store.js';

const S3 = { DOCUMENT_STORE: 's3', S3_BUCKET: 'docs', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' };

describe(loadDocumentsConfig.name, () => {
  it('defaults to a local folder under DATA_DIR and 20 MB uploads', () => {
    const config = loadDocumentsConfig({}, './data');
    expect(config).toMatchObject({ kind: 'local', dir: join(resolve('./data'), 'documents'), maxUploadMb: 20 });
    expect(createDocumentStore(config)).toBeInstanceOf(LocalDocumentStore);
  });

  it('reads MAX_UPLOAD_MB and UPLOAD_TMP_DIR', () => {
    expect(loadDocumentsConfig({ MAX_UPLOAD_MB: '5', UPLOAD_TMP_DIR: '/var/tmp/up' }, '/d')).toMatchObject({
      maxUploadMb: 5,
      uploadDir: '/var/tmp/up',
    });
    for (const bad of ['0', '-1', 'ten', '5000']) {
      expect(() => loadDocumentsConfig({ MAX_UPLOAD_MB: bad }, '/d')).toThrow(ConfigError);
    }
  });

  it('configures an S3-compatible bucket', () => {
    const config = loadDocumentsConfig({ ...S3, S3_ENDPOINT: 'http://127.0.0.1:9000' }, '/d');
    expect(config).toEqual({
      kind: 's3',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      bucket: 'docs',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      forcePathStyle: true,
      maxUploadMb: 20,
      uploadDir: expect.any(String),
    });
    expect(createDocumentStore(config)).toBeInstanceOf(S3DocumentStore);
    expect(loadDocumentsConfig({ ...S3, S3_REGION: 'eu-central-1', S3_FORCE_PATH_STYLE: 'false' }, '/d')).toMatchObject({
      endpoint: undefined,
      region: 'eu-central-1',
      forcePathStyle: false,
    });
  });

  it('names everything that is missing', () => {
    expect(() => loadDocumentsConfig({ DOCUMENT_STORE: 's3' }, '/d')).toThrow(
      'DOCUMENT_STORE=s3 needs: S3_REGION (or S3_ENDPOINT for an S3-compatible server), S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY',
    );
    expect(() => loadDocumentsConfig({ ...S3, S3_SECRET_ACCESS_KEY: '', S3_REGION: 'x' }, '/d')).toThrow(
      'DOCUMENT_STORE=s3 needs: S3_SECRET_ACCESS_KEY',
    );
  });

  it('refuses unknown stores, bad endpoints and bad flags', () => {
    expect(() => loadDocumentsConfig({ DOCUMENT_STORE: 'ftp' }, '/d')).toThrow(/DOCUMENT_STORE must be local or s3/);
    expect(() => loadDocumentsConfig({ ...S3, S3_ENDPOINT: 'minio:9000' }, '/d')).toThrow(/S3_ENDPOINT must be an http\(s\) URL/);
    expect(() => loadDocumentsConfig({ ...S3, S3_REGION: 'x', S3_FORCE_PATH_STYLE: 'maybe' }, '/d')).toThrow(/S3_FORCE_PATH_STYLE/);
  });
});
