// The processing queue of pushed documents: one job per document (and per replay or deferral).
import type { EntityManager } from 'typeorm';
import type { JobQueue } from '../jobs/job-queue.js';

export const PUSH_QUEUE = 'push-documents';
/** Jobs that used up their attempts land here; its worker marks the document dead_lettered. */
export const PUSH_DEAD_LETTER_QUEUE = 'push-documents-dead';

export interface PushJob {
  companyId: string;
  documentId: string;
  /** How often the document was deferred behind an earlier version so far (its next look waits twice as long). */
  deferrals?: number;
}

/** Enqueues in the caller's transaction; throws when pg-boss inserted nothing (never acknowledge a document without its job). */
export async function enqueueDocument(queue: JobQueue, job: PushJob, manager: EntityManager, startAfter?: Date): Promise<string> {
  const id = await queue.send(PUSH_QUEUE, job, { manager, startAfter });
  if (!id) throw new Error(`the processing job of document doc-${job.documentId} was not queued`);
  return id;
}
