// The processing queue of pushed documents is the push_documents table itself (see
// PushQueueRepository). This signal wakes the worker of this process as soon as documents are due
// (an accepted batch committed, a dead letter replayed); other replicas find them by polling.
import { Injectable } from '@nestjs/common';

@Injectable()
export class PushSignal {
  private readonly listeners = new Set<() => void>();

  notify(): void {
    for (const listener of this.listeners) listener();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
