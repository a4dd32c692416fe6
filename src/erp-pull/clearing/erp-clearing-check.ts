// Never remind what the ERP already cleared: before reminders for ERP-pulled invoices are created (the
// run's issue step, an approval) and again before one is shipped, the ERP is asked about exactly those
// items (clearing-inquiry.ts). A clearing found is booked the way the pull books it (same payment key,
// so a later pull books nothing twice) and the invoice settled; its reminder is not created or shipped.
// An ERP that cannot be reached holds its reminders back, unless the policy says to send anyway.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { toPublicId } from '../../common/ids.js';
import { DunningPolicyRepository } from '../../companies/dunning-policy.repository.js';
import type { InvoiceRow } from '../mapping/erp-record-mapper.js';
import { PullTransitionsRepository } from '../run/pull-transitions.repository.js';
import { PullUpsertsRepository } from '../run/pull-upserts.repository.js';
import { ClearingCheckRepository } from './clearing-check.repository.js';
import { type ClearingAnswers, ClearingInquiry, noAnswers } from './clearing-inquiry.js';

export interface ClearingVerdict {
  /** Invoices that must not be reminded now, with the reason (cleared in the ERP, or the ERP unreachable). */
  refusals: Map<string, string>;
  /** For the run's warnings. */
  warnings: string[];
}

@Injectable()
export class ErpClearingCheck {
  constructor(
    private readonly repository: ClearingCheckRepository,
    private readonly inquiry: ClearingInquiry,
    private readonly upserts: PullUpsertsRepository,
    private readonly transitions: PullTransitionsRepository,
    private readonly policies: DunningPolicyRepository,
  ) {}

  /**
   * The issue step of a run or an approval, in its transaction: asks the ERP about the ERP-pulled
   * invoices about to be reminded (all ready ones, or `only`), books what it cleared, and returns the
   * invoices the step may remind: `only` unchanged when nothing stands in the way, else the ready ones
   * without those refused (each gets a reminder_skipped event).
   */
  async beforeIssue(
    m: EntityManager,
    companyId: string,
    runId: string,
    only?: string[],
  ): Promise<{ invoiceIds: string[] | undefined; warnings: string[] }> {
    const ready = await this.repository.readyForReminder(m, companyId, only);
    const items = await this.repository.pulledItems(companyId, ready, m);
    if (items.length === 0) return { invoiceIds: only, warnings: [] };
    const runPublicId = toPublicId('run', runId);
    const answers = await this.inquiry.ask(companyId, items, runPublicId);
    const verdict = await this.settle(m, companyId, answers, runPublicId, 'before its reminder was created');
    await this.repository.skipped(m, companyId, runPublicId, verdict.refusals, { dunning_run: runPublicId });
    if (verdict.refusals.size === 0) return { invoiceIds: only, warnings: verdict.warnings };
    return { invoiceIds: ready.filter((id) => !verdict.refusals.has(id)), warnings: verdict.warnings };
  }

  /**
   * Before a reminder is shipped, outside any transaction: what the ERP says about its invoice (nothing
   * to say when the invoice was not pulled from an ERP). settle() then books it in the send's transaction.
   */
  async askBeforeShipping(companyId: string, reminderId: string): Promise<ClearingAnswers> {
    const invoiceId = await this.repository.invoiceOfReminder(companyId, reminderId);
    const items = invoiceId ? await this.repository.pulledItems(companyId, [invoiceId]) : [];
    return items.length ? this.inquiry.ask(companyId, items, toPublicId('rem', reminderId)) : noAnswers();
  }

  /**
   * Books the clearings of the answers (payments and settlement by the ledger, as the pull does) and
   * says which invoices must not be reminded now, and why. `actor`: the dunning run's or the reminder's
   * public id; `when`: the moment, for the reasons ("before its reminder was shipped").
   */
  async settle(m: EntityManager, companyId: string, answers: ClearingAnswers, actor: string, when: string): Promise<ClearingVerdict> {
    const refusals = new Map<string, string>();
    const warnings: string[] = [];
    if (answers.cleared.size) {
      const rows = [...answers.cleared.values()];
      await this.upserts.recordClearings(m, companyId, actor, rows);
      await this.transitions.transition(
        m,
        companyId,
        actor,
        { action: 'settle', keys: rows.map((r) => r.externalId.toLowerCase()) },
        `cleared in the ERP, found when the ERP was asked ${when}`,
      );
      for (const [invoiceId, row] of answers.cleared) refusals.set(invoiceId, `cleared in the ERP${clearedBy(row)}: no reminder`);
    }
    const sendAnyway = answers.unreachable.size > 0 && (await this.policies.get(companyId, m)).sendWhenErpUnreachable;
    for (const failure of answers.failures) {
      const consequence = sendAnyway
        ? `reminded anyway (dunning policy send_when_erp_unreachable)`
        : `held back until the next run (never a reminder on stale data)`;
      warnings.push(
        `warning: ERP connection ${failure.connection} could not be asked whether it cleared ${failure.items} invoice(s) ${when}: ${failure.error}; ${consequence}`,
      );
    }
    if (!sendAnyway) {
      for (const [invoiceId, error] of answers.unreachable)
        refusals.set(invoiceId, `the ERP could not be asked whether it cleared the item (${error}): held back until the next run`);
    }
    if (answers.unknown.size) {
      const keys = [...answers.unknown.values()].slice(0, 10).join(', ');
      warnings.push(`warning: the ERP has no such item any more (archived or deleted?), reminded as open here: ${keys}`);
    }
    return { refusals, warnings };
  }
}

function clearedBy(row: InvoiceRow): string {
  const parts = [row.clearingDocument && `by document ${row.clearingDocument}`, row.clearingDate && `on ${row.clearingDate}`];
  const said = parts.filter(Boolean).join(' ');
  return said ? ` ${said}` : '';
}
