// The processing queue of pushed documents: one job per document (and per replay or deferral).
import type { EntityManager } from 'typeorm';
import type { JobQueue } from '../jobs/job-queue.js';

export const PUSH_QUEUE = 'push-documents';
/** Jobs that used up their attempts land here; its worker marks the document dead_lettered. */
export const PUSH_DEAD_LETTER_QUEUE = 'push-documents-dead';

export interface PushJob {
  companyId: string;
  documentId: string;
}

export function enqueueDocument(queue: JobQueue, job: PushJob, manager: EntityManager, startAfter?: Date): Promise<string | null> {
  return queue.send(PUSH_QUEUE, job, { manager, startAfter });
}
