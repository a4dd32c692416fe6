// The document store and the upload settings, available everywhere: DocumentStore (local or S3,
// picked from the configuration) and DOCUMENTS_CONFIG.
import { type DynamicModule, Global, Inject, Module, type OnModuleInit } from '@nestjs/common';
import { DOCUMENTS_CONFIG, type DocumentStoreConfig, type DocumentsConfig, loadDocumentsConfig } from '../config/documents.config.js';
import { DocumentStore } from './document-store.js';
import { LocalDocumentStore } from './local-document-store.js';
import { sweepStaleUploads } from './pdf-temp-storage.js';
import { S3DocumentStore } from './s3-document-store.js';

/** No upload takes this long: older temp files were left by a process that died. */
const STALE_UPLOAD_MS = 60 * 60 * 1000;

export { DOCUMENTS_CONFIG };

export function createDocumentStore(config: DocumentStoreConfig): DocumentStore {
  return config.kind === 's3' ? new S3DocumentStore(config) : new LocalDocumentStore(config.dir);
}

@Global()
@Module({})
export class DocumentsModule implements OnModuleInit {
  constructor(@Inject(DOCUMENTS_CONFIG) private readonly config: DocumentsConfig) {}

  async onModuleInit(): Promise<void> {
    await sweepStaleUploads(this.config.uploadDir, STALE_UPLOAD_MS);
  }

  /** Reads DOCUMENT_STORE, S3_*, MAX_UPLOAD_MB and UPLOAD_TMP_DIR; throws ConfigError when they are incomplete. */
  static forRoot(dataDir: string): DynamicModule {
    return DocumentsModule.forConfig(loadDocumentsConfig(undefined, dataDir));
  }

  static forConfig(config: DocumentsConfig): DynamicModule {
    return {
      module: DocumentsModule,
      providers: [
        { provide: DOCUMENTS_CONFIG, useValue: config },
        { provide: DocumentStore, useFactory: () => createDocumentStore(config) },
      ],
      exports: [DOCUMENTS_CONFIG, DocumentStore],
    };
  }
}
