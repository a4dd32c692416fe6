// The rules of approving the reminders a run proposed (policy auto_ship false): only what the caller
// names, or all of it with the count the caller saw; a reminder is issued for the business date of the
// run that proposed it, and only while that proposal is recent enough (policy proposal_valid_days);
// what no longer passes the send-time guards steps back at once instead of being issued. Any refusal
// (422/404/409) comes before the first write, so a refused request changes nothing.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CompanyContext } from '../../auth/principal.js';
import { daysBetween } from '../../common/calendar-date.js';
import { AppError, type FieldError, validationFailed } from '../../common/errors.js';
import { newUuid, parsePublicId, toPublicId } from '../../common/ids.js';
import type { PageRequest } from '../../common/pagination.js';
import { DunningPolicyRepository } from '../../companies/dunning-policy.repository.js';
import type { DunningPolicy } from '../../companies/dunning-policy.js';
import { Invoice } from '../../invoices/invoice.entity.js';
import { InvoiceTransitions } from '../../invoices/ledger/invoice-transitions.js';
import { type Actor, InvoicesRepository } from '../../invoices/invoices.repository.js';
import { DunningRunRepository, type IssuedReminder } from '../dunning-run.repository.js';
import { DunningRunService } from '../dunning-run.service.js';
import { DunningService } from '../dunning.service.js';
import type { ApproveDto, RejectDto } from './approval.dto.js';
import { type ApprovalFilters, ApprovalsRepository, type WaitingReminder } from './approvals.repository.js';

export interface WaitingView extends WaitingReminder {
  charges: IssuedReminder | undefined;
  /** The proposal is too old (or was made by no recorded run): a new run must propose it again. */
  expired: boolean;
}

export interface ApprovedReminder extends IssuedReminder {
  businessDate: string;
  runId: string;
}

export interface SteppedBack {
  invoiceId: string;
  stage: number;
  reason: string;
}

class Rollback extends Error {
  constructor(readonly issued: IssuedReminder[]) {
    super('charges preview only');
  }
}

@Injectable()
export class ApprovalsService {
  constructor(
    private readonly waiting: ApprovalsRepository,
    private readonly dunning: DunningService,
    private readonly runner: DunningRunService,
    private readonly runSql: DunningRunRepository,
    private readonly policies: DunningPolicyRepository,
    private readonly invoices: InvoicesRepository,
    private readonly transitions: InvoiceTransitions,
  ) {}

  /** A page of the waiting reminders, each with the charges it would carry when approved now. */
  async list(company: CompanyContext, filters: ApprovalFilters, page: PageRequest, date?: string | null) {
    const today = this.dunning.businessDate(company, date);
    const policy = await this.policies.get(company.id);
    const { items, total } = await this.waiting.page(company.id, filters, page.perPage, page.offset);
    const charges = await this.previewCharges(company.id, items, today);
    const views: WaitingView[] = items.map((item) => ({
      ...item,
      charges: charges.get(item.invoiceId),
      expired: isExpired(item, today, policy),
    }));
    return { items: views, total, policy };
  }

  async approve(company: CompanyContext, dto: ApproveDto, actor: Actor) {
    const today = this.dunning.businessDate(company, dto.date);
    const ids = dto.all === true ? undefined : namedIds(dto.ids, 'approve');
    if (dto.all === true && dto.ids !== undefined)
      throw validationFailed([{ field: 'ids', message: 'ids and all: true exclude each other' }]);
    if (dto.all === true && dto.expected_count === undefined) {
      throw validationFailed([
        { field: 'expected_count', message: 'all: true needs expected_count, the number of reminders you saw waiting' },
      ]);
    }
    return this.invoices.transaction(async (m) => {
      const policy = await this.policies.get(company.id, m);
      const waiting = await this.lock(m, company.id, today, policy, ids);
      if (!ids && waiting.length !== dto.expected_count) {
        throw new AppError(
          'dunning_approval.count_changed',
          `${waiting.length} reminders wait for approval now, not ${dto.expected_count}: look at the list again and approve with the new count`,
          [],
          { waiting_count: waiting.length },
        );
      }
      const expired = waiting.filter((w) => isExpired(w, today, policy));
      if (expired.length > 0) {
        throw new AppError(
          'dunning_approval.proposal_expired',
          `The proposal of ${expired.length} reminder(s) is older than ${policy.proposalValidDays} days (policy proposal_valid_days): start a dunning run to propose them again, then approve`,
          expired.map((w) => ({
            field: ids ? `ids[${ids.indexOf(w.invoiceId)}]` : 'all',
            message: `${toPublicId('inv', w.invoiceId)}: ${w.businessDate ? `proposed for ${w.businessDate}` : 'proposed by no recorded run'}`,
          })),
        );
      }
      const steppedBack: SteppedBack[] = [];
      for (const w of waiting) {
        if (!w.refusal) continue;
        await this.stepBack(m, company.id, w, actor, w.refusal);
        steppedBack.push({ invoiceId: w.invoiceId, stage: w.stage, reason: w.refusal });
      }
      const approved: ApprovedReminder[] = [];
      for (const [key, group] of groupBy(
        waiting.filter((w) => !w.refusal),
        (w) => `${w.runId}|${w.businessDate}`,
      )) {
        const [runId, businessDate] = key.split('|');
        const ctx = { companyId: company.id, runId, date: businessDate };
        const issued = await this.runner.approve(
          m,
          ctx,
          group.map((w) => w.invoiceId),
        );
        approved.push(...issued.map((r) => ({ ...r, runId, businessDate })));
      }
      return { approved, steppedBack };
    });
  }

  /** The named reminders are not issued: their invoices step back to where they were before the proposal. */
  async reject(company: CompanyContext, dto: RejectDto, actor: Actor): Promise<SteppedBack[]> {
    const ids = namedIds(dto.ids, 'reject');
    const today = this.dunning.businessDate(company);
    return this.invoices.transaction(async (m) => {
      const policy = await this.policies.get(company.id, m);
      const waiting = await this.lock(m, company.id, today, policy, ids);
      const reason = dto.reason ? `rejected: ${dto.reason}` : 'rejected at approval';
      for (const w of waiting) await this.stepBack(m, company.id, w, actor, reason);
      return waiting.map((w) => ({ invoiceId: w.invoiceId, stage: w.stage, reason }));
    });
  }

  /** The waiting reminders locked; every named invoice must be one of them (404 unknown, 409 not waiting). */
  private async lock(m: EntityManager, companyId: string, today: string, policy: DunningPolicy, ids?: string[]) {
    const minimums = policy.levels.map((level) => level.minimumOpen);
    const waiting = await this.waiting.lock(m, companyId, today, minimums, ids);
    if (!ids) return waiting;
    const statuses = await this.waiting.statuses(m, companyId, ids);
    const unknown = ids.filter((id) => !statuses.has(id));
    if (unknown.length > 0) {
      throw new AppError(
        'invoice.not_found',
        `Invoice ${unknown.map((id) => toPublicId('inv', id)).join(', ')} not found`,
        unknown.map((id) => ({ field: `ids[${ids.indexOf(id)}]`, message: `${toPublicId('inv', id)} not found` })),
      );
    }
    const waitingIds = new Set(waiting.map((w) => w.invoiceId));
    const notWaiting = ids.filter((id) => !waitingIds.has(id));
    if (notWaiting.length > 0) {
      throw new AppError(
        'dunning_approval.not_waiting',
        `${notWaiting.length} of the named invoices have no reminder waiting for approval`,
        notWaiting.map((id) => ({
          field: `ids[${ids.indexOf(id)}]`,
          message: `${toPublicId('inv', id)} is ${statuses.get(id)}, with no reminder waiting for approval`,
        })),
      );
    }
    return waiting;
  }

  private async stepBack(m: EntityManager, companyId: string, w: WaitingReminder, actor: Actor, reason: string): Promise<void> {
    const invoice = await m.findOneByOrFail(Invoice, { companyId, id: w.invoiceId });
    await this.transitions.apply(m, invoice, `step_back${w.stage}`, actor, reason);
  }

  /** The charges each reminder would get, by the same statement that issues it, in a transaction rolled back. */
  private async previewCharges(companyId: string, items: WaitingReminder[], today: string): Promise<Map<string, IssuedReminder>> {
    if (items.length === 0) return new Map();
    try {
      await this.invoices.transaction(async (m) => {
        const policy = await this.policies.get(companyId, m);
        const issued: IssuedReminder[] = [];
        for (const [, group] of groupBy(items, (w) => `${w.runId}|${w.businessDate}|${w.stage}`)) {
          const { stage, runId, businessDate } = group[0];
          const ctx = { companyId, runId: runId ?? newUuid(), date: businessDate ?? today };
          const ids = group.map((w) => w.invoiceId);
          const level = policy.levels[stage - 1];
          issued.push(...(await this.runSql.issueReminders(m, ctx, stage, level.fee, level.paymentTermDays, policy, ids)));
        }
        throw new Rollback(issued);
      });
    } catch (error) {
      if (error instanceof Rollback) return new Map(error.issued.map((r) => [r.invoiceId, r]));
      throw error;
    }
    throw new Error('unreachable');
  }
}

function isExpired(w: WaitingReminder, today: string, policy: DunningPolicy): boolean {
  return !w.businessDate || daysBetween(w.businessDate, today) > policy.proposalValidDays;
}

/** The named invoice ids (inv-…), without repeats; none at all is a 422, never "all". */
function namedIds(raw: string[] | undefined, what: string): string[] {
  if (!raw || raw.length === 0) {
    const hint = what === 'approve' ? '; to approve everything that waits send all: true with expected_count' : '';
    throw validationFailed([{ field: 'ids', message: `ids must name at least one invoice whose reminder to ${what}${hint}` }]);
  }
  const errors: FieldError[] = [];
  const ids = raw.map((id, i) => {
    const uuid = parsePublicId('inv', id);
    if (!uuid) errors.push({ field: `ids[${i}]`, message: `${id} is not an invoice id (inv-…)` });
    return uuid ?? '';
  });
  if (errors.length > 0) throw validationFailed(errors);
  return [...new Set(ids)];
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
