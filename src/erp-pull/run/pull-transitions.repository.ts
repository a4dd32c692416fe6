// Status changes of pulled invoices, set-based: all invoices a batch settles (or reopens) move in one
// statement, with their events, by the ledger (PullLedger: the set-based form of the one transition table).
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { PullLedger } from '../../invoices/ledger/pull-ledger.js';

@Injectable()
export class PullTransitionsRepository {
  constructor(private readonly ledger: PullLedger) {}

  /**
   * settle: the invoices among these keys (lower-cased external_ids) whose open amount is zero or less;
   * reopen: the invoices among these ids with money open again. Returns how many moved.
   */
  transition(
    manager: EntityManager,
    companyId: string,
    runId: string,
    change: { action: 'settle'; keys: string[] } | { action: 'reopen'; invoiceIds: string[] },
    reason: string,
  ): Promise<number> {
    return this.ledger.transition(manager, companyId, runId, change, reason);
  }
}
