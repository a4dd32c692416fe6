// Receiving pushed documents and managing them: a document is stored (and so queued: the table is
// the processing queue) before the 202; an identical re-push is a no-op answered with the first
// document; a changed one becomes the next version of its external_id. Dead letters are replayed
// (a new job) or discarded with a reason; both are audited with the caller's credential.
import { Injectable } from '@nestjs/common';
import type { CompanyContext, Principal } from '../../auth/principal.js';
import { AppError } from '../../common/errors.js';
import { GroupCommit } from '../../database/group-commit.js';
import { newUuid, parsePublicId } from '../../common/ids.js';
import type { PageRequest } from '../../common/pagination.js';
import { isUniqueViolation } from '../../database/pg-errors.js';
import type { Credential, PushDocument } from '../push-document.js';
import { type AuditFilters, PushAuditRepository } from '../audit/push-audit.repository.js';
import { type DocumentFilters, PushDocumentsRepository, type ReceivedDocument } from '../documents/push-documents.repository.js';
import type { PushInput } from './push-input.js';
import { PushSignal } from '../queue/push-signal.js';

/** Optimistic first, then under the external_id's lock: more than a few rounds means a storm of pushes. */
const MAX_VERSION_ATTEMPTS = 10;
/** Documents per group commit: bounds the statement and the event loop's turn that answers them. */
const MAX_GROUP_COMMIT = 256;

type Received = { document: PushDocument; created: boolean };

export function credentialOf(principal: Principal, requestId: string | undefined): Credential {
  return { type: principal.scheme, id: principal.credentialId, requestId: requestId ?? null };
}

@Injectable()
export class PushDocumentsService {
  constructor(
    private readonly documents: PushDocumentsRepository,
    private readonly audit: PushAuditRepository,
    private readonly signal: PushSignal,
  ) {}

  /**
   * `created` false: an identical document was pushed before; the answer is that first document.
   * Concurrent pushes are stored together (group commit): one statement and one commit for all of
   * them, each answered after that commit.
   */
  accept(company: CompanyContext, input: PushInput, by: Credential): Promise<Received> {
    return this.intake.submit({
      companyId: company.id,
      id: newUuid(),
      type: input.documentType,
      externalId: input.externalId,
      payload: input.payload,
      payloadHash: input.payloadHash,
      credentialType: by.type,
      credentialId: by.id,
      requestId: by.requestId,
    });
  }

  private readonly intake = new GroupCommit<ReceivedDocument, Received>({
    writeBatch: (docs) =>
      this.documents
        .transaction(async (manager) => {
          return this.documents.receiveMany(docs, manager);
        })
        .then((received) => {
          if (received.some((r) => r.created)) this.signal.notify();
          return received;
        }),
    writeOne: (doc) => this.acceptOne(doc),
    keyOf: (doc) => `${doc.companyId}:${doc.type}:${doc.externalId.toLowerCase()}`,
    maxBatch: MAX_GROUP_COMMIT,
  });

  /** One document alone, in its own transaction: the fallback for a batch that failed. */
  private async acceptOne(doc: ReceivedDocument): Promise<Received> {
    const by: Credential = { type: doc.credentialType, id: doc.credentialId, requestId: doc.requestId };
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.documents
          .transaction(async (manager) => {
            // Two pushes of one external_id at once took the same version number before: the retry queues up.
            if (attempt > 1) await this.documents.lockExternalId(doc.companyId, doc.type, doc.externalId, manager);
            return this.documents.receive({ ...doc, id: newUuid() }, by, manager);
          })
          .then((received) => {
            if (received.created) this.signal.notify();
            return received;
          });
      } catch (error) {
        if (!isUniqueViolation(error, 'push_documents_version_key')) throw error;
        if (attempt >= MAX_VERSION_ATTEMPTS) {
          throw new AppError(
            'service_unavailable',
            `Too many pushes of external_id "${doc.externalId}" at the same moment; push this one again`,
          );
        }
      }
    }
  }

  async get(company: CompanyContext, publicId: string): Promise<PushDocument> {
    const id = parsePublicId('doc', publicId);
    const document = id ? await this.documents.find(company.id, id) : undefined;
    if (!document) throw new AppError('push_document.not_found', `Document ${publicId} was not found`);
    return document;
  }

  list(company: CompanyContext, filters: DocumentFilters, page: PageRequest) {
    return this.documents.list(company.id, filters, page);
  }

  /** Queues a dead-lettered document again, with fresh retries. */
  async replay(company: CompanyContext, publicId: string, by: Credential): Promise<PushDocument> {
    const id = parsePublicId('doc', publicId);
    const document = id && (await this.documents.requeue(company.id, id, by));
    if (!document) throw new AppError('dead_letter.not_found', `Dead letter ${publicId} was not found`);
    this.signal.notify();
    return document;
  }

  async discard(company: CompanyContext, publicId: string, reason: string, by: Credential): Promise<void> {
    const id = parsePublicId('doc', publicId);
    const document = id && (await this.documents.discard(company.id, id, reason, by));
    if (!document) throw new AppError('dead_letter.not_found', `Dead letter ${publicId} was not found`);
  }

  auditLog(company: CompanyContext, filters: AuditFilters, page: PageRequest) {
    return this.audit.page(company.id, filters, page);
  }
}
