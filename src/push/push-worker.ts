// Processes pushed documents: one job per document, retried with exponential backoff, then
// dead-lettered. Each attempt is recorded (attempt n, succeeded / failed); the effect and the
// `processed` marker commit in one transaction, so a document takes effect exactly once whatever
// crashes or duplicate jobs happen. Versions of one external_id are applied in order: a document
// whose earlier version is still pending waits (deferred) and looks again shortly.
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type PgBoss from 'pg-boss';
import type { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { AppError } from '../common/errors.js';
import { DocumentStore } from '../documents/document-store.js';
import { JobQueue } from '../jobs/job-queue.js';
import type { DocumentType } from './dto/push-document.dto.js';
import { CustomerProcessor } from './processors/customer.processor.js';
import { InvoiceProcessor } from './processors/invoice.processor.js';
import { LedgerProcessor } from './processors/ledger.processor.js';
import type { DocumentProcessor, FileChanges, ProcessResult } from './processors/processor.js';
import { PENDING_STATUSES, type PushDocument } from './push-document.js';
import { PushDocumentsRepository } from './push-documents.repository.js';
import { enqueueDocument, PUSH_DEAD_LETTER_QUEUE, PUSH_QUEUE, type PushJob } from './push-queue.js';

/**
 * Client errors that can go away by themselves, retried with backoff: a reference that has not arrived
 * yet (an ERP's documents can come out of order: the payment before its invoice; replay it by hand
 * once the reference exists), and a record created by someone else at the same moment (the retry finds
 * it and updates it).
 */
const RETRYABLE: readonly string[] = [
  'customer.not_found',
  'invoice.not_found',
  'customer.external_id_taken',
  'contact.external_id_taken',
  'invoice.external_id_taken',
  'shipping.in_progress',
  'rate_limited',
];

/**
 * An error that retrying cannot cure: a client error about the document itself or about the state of
 * the record it changes (a payment id held by a REST payment, a field that can no longer change, an
 * archived invoice, a due date before the invoice date). The document is dead-lettered after this one
 * attempt, with the error, instead of three more.
 */
export function isPermanent(error: unknown): boolean {
  return error instanceof AppError && error.status >= 400 && error.status < 500 && !RETRYABLE.includes(error.code);
}

/** The longest wait between two looks of a deferred document (the earlier version usually wakes it sooner). */
const MAX_DEFER_SECONDS = 60;

/** Errors are stored and shown to the client: the message, never a stack or SQL parameters. */
function describe(error: unknown): string {
  if (error instanceof AppError) {
    const fields = error.errors.map((e) => `${e.field}: ${e.message}`).join('; ');
    return `${error.code}: ${error.message}${fields ? ` (${fields})` : ''}`;
  }
  return error instanceof Error ? error.message.slice(0, 1000) : 'processing failed';
}

@Injectable()
export class PushWorker implements OnApplicationBootstrap {
  private readonly logger = new Logger(PushWorker.name);
  private readonly processors: Record<DocumentType, DocumentProcessor>;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queue: JobQueue,
    private readonly documents: PushDocumentsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly store: DocumentStore,
    ledger: LedgerProcessor,
    customers: CustomerProcessor,
    invoices: InvoiceProcessor,
  ) {
    this.processors = { payment: ledger.payment, credit_memo: ledger.creditMemo, customer: customers, invoice: invoices };
  }

  async onApplicationBootstrap(): Promise<void> {
    const push = this.config.integration.push;
    await this.queue.define({
      name: PUSH_QUEUE,
      retryLimit: push.retryLimit,
      retryDelaySeconds: push.retryBaseSeconds,
      deadLetter: PUSH_DEAD_LETTER_QUEUE,
      expireInSeconds: push.attemptTimeoutSeconds,
    });
    if (!push.worker) return;
    await this.queue.workEach<PushJob>(PUSH_QUEUE, (job) => this.process(job), { batchSize: push.batchSize, concurrency: push.concurrency });
    await this.queue.workEach<PushJob>(PUSH_DEAD_LETTER_QUEUE, (job) => this.deadLettered(job), { batchSize: 20, concurrency: 1 });
  }

  /** One attempt at one document. Throwing fails the job: pg-boss retries it or moves it to the dead-letter queue. */
  async process(job: PgBoss.JobWithMetadata<PushJob>): Promise<void> {
    const { companyId, documentId } = job.data;
    const started = await this.documents.startAttempt(companyId, documentId);
    if (!started) return this.notStarted(job.data);
    const { document } = started;
    const company = { id: companyId, name: started.companyName, timeZone: started.timeZone };
    const files: FileChanges = { written: [], obsolete: [] };
    let waiting = false;
    try {
      await this.db.transaction(async (manager) => {
        // Another run of the same document (a duplicate job) waits here and then finds it processed.
        const locked = await this.documents.lockForEffect(document, manager);
        if (locked?.status !== 'processing') return;
        if (locked.superseded) {
          waiting = await this.documents.markProcessed(document, 'superseded', null, manager);
          return;
        }
        const actor = { type: 'push' as const, id: `doc-${document.id}` };
        const result: ProcessResult = await this.processors[document.documentType].apply({ company, document, actor, manager, files });
        waiting = await this.documents.markProcessed(document, result.outcome, result.result, manager, result.notes);
      });
    } catch (error) {
      await this.removeFiles(files.written);
      const permanent = isPermanent(error);
      const final = permanent || job.retryCount >= job.retryLimit;
      const reason = permanent ? 'the error cannot go away by retrying' : 'every attempt failed';
      await this.documents.markFailed(companyId, documentId, describe(error), final, reason);
      if (final) await this.documents.wakeSuccessors(document);
      if (!(error instanceof AppError)) this.logger.warn({ err: error, document: `doc-${documentId}`, attempt: document.attempts }, 'push document failed');
      // A dead letter now: its job is done (a replay queues a new one). Otherwise pg-boss retries it.
      if (!permanent) throw error;
      return;
    }
    await this.removeFiles(files.obsolete);
    if (waiting) await this.documents.wakeSuccessors(document);
  }

  /** Best effort: a file left behind (the process died first) is unreferenced, never missing. */
  private async removeFiles(keys: string[]): Promise<void> {
    for (const key of keys) {
      await this.store.delete(key).catch((error: unknown) => this.logger.warn({ err: error, key }, 'could not remove a replaced document file'));
    }
  }

  /** Done already (nothing to do), or an earlier version is pending: look again later. */
  private async notStarted(job: PushJob): Promise<void> {
    const current = await this.documents.find(job.companyId, job.documentId);
    if (!current || !PENDING_STATUSES.includes(current.status)) return;
    await this.defer(current, job.deferrals ?? 0);
  }

  /**
   * Waits for the earlier version: one `deferred` audit row, and one waiting job whose delay doubles
   * (PUSH_DEFER_SECONDS, twice that, … up to a minute). The earlier version moves the job forward when
   * it finishes; should it have finished while this job was being queued, the check after the commit does.
   */
  private async defer(document: PushDocument, deferrals: number): Promise<void> {
    const base = this.config.integration.push.deferSeconds;
    const seconds = Math.min(base * 2 ** deferrals, Math.max(base, MAX_DEFER_SECONDS));
    await this.documents.transaction(async (manager) => {
      if (deferrals === 0) {
        await this.documents.audit(document.companyId, document.id, 'deferred', { type: document.credentialType, id: document.credentialId, requestId: document.requestId }, manager, {
          details: { reason: 'an earlier version of this external_id is not processed yet' },
        });
      }
      const job = { companyId: document.companyId, documentId: document.id, deferrals: deferrals + 1 };
      await enqueueDocument(this.queue, job, manager, new Date(Date.now() + seconds * 1000));
    });
    if (!(await this.documents.hasPendingPredecessor(document))) await this.documents.wake(document);
  }

  private async deadLettered(job: PgBoss.JobWithMetadata<PushJob>): Promise<void> {
    const { companyId, documentId } = job.data;
    await this.documents.deadLetter(companyId, documentId, 'the last attempt did not finish (timed out or the process ended)', job.createdOn);
    const document = await this.documents.find(companyId, documentId);
    if (document) await this.documents.wakeSuccessors(document);
  }
}
