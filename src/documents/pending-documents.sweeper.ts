// Deletes the files of writes that never committed (announced in pending_documents, see its
// repository), hourly through the job queue's cron: once per hour whatever the number of replicas.
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { JobQueue } from '../jobs/job-queue.js';
import { DocumentStore } from './document-store.js';
import { PendingDocumentsRepository } from './pending-documents.repository.js';

export const DOCUMENT_SWEEP_QUEUE = 'documents.sweep';
/**
 * Far above the life of any write: a create gives up an hour after its announcement (InvoiceIntake),
 * and its database work is bounded by the pool's timeouts.
 */
export const GRACE_HOURS = 24;
const BATCH = 200;

@Injectable()
export class PendingDocumentsSweeper implements OnApplicationBootstrap {
  private readonly logger = new Logger('DocumentSweep');

  constructor(
    private readonly queue: JobQueue,
    private readonly pending: PendingDocumentsRepository,
    private readonly documents: DocumentStore,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.define({ name: DOCUMENT_SWEEP_QUEUE, retryLimit: 2, retryDelaySeconds: 60, expireInSeconds: 30 * 60 });
    await this.queue.schedule(DOCUMENT_SWEEP_QUEUE, '23 * * * *', {}, 'UTC');
    await this.queue.work(DOCUMENT_SWEEP_QUEUE, () => this.sweep());
  }

  /** Deletes the files, then the announcement: a crash in between leaves the row for the next sweep. */
  async sweep(): Promise<number> {
    let removed = 0;
    for (;;) {
      const batch = await this.pending.abandoned(GRACE_HOURS, BATCH);
      for (const files of batch) {
        await Promise.all(files.keys.map((key) => this.documents.delete(key)));
        await this.pending.forget(files);
        removed += files.keys.length;
      }
      if (batch.length < BATCH) break;
    }
    if (removed > 0) this.logger.warn({ removed }, 'deleted files of writes that never committed');
    return removed;
  }
}
