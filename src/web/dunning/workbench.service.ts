// The workbench's view of the dunning services: the proposal of a business date (what a run would do,
// rolled back) and the reminders waiting for approval, each invoice with its customer, filtered by stage
// and customer and grouped by customer with sums. Approving and rejecting are the approval service's.
import { Injectable } from '@nestjs/common';
import type { CompanyContext } from '../../auth/principal.js';
import { Decimal } from '../../common/money.js';
import type { DunningPolicy } from '../../companies/dunning-policy.js';
import type { IssuedReminder } from '../../dunning/dunning-run.repository.js';
import { DunningService } from '../../dunning/dunning.service.js';
import { ApprovalsService, type WaitingView } from '../../dunning/approvals/approvals.service.js';
import { DunningWebRepository, type InvoiceSummary } from './dunning-web.repository.js';

/** The approval API names at most this many reminders at once; the workbench shows as many. */
export const WAITING_LIMIT = 1000;

export interface WorkbenchFilters {
  /** YYYY-MM-DD; undefined: today. */
  date?: string;
  stage?: 1 | 2 | 3;
  /** A customer id (uuid). */
  customerId?: string;
}

export interface ProposalRow {
  invoice: InvoiceSummary;
  /** The last move of the invoice in the run (become_due, ready_for_reminder2 …). */
  action: string;
  reminder: IssuedReminder | undefined;
}

export interface WaitingRow {
  invoice: InvoiceSummary;
  waiting: WaitingView;
}

export interface Group<Row> {
  customerId: string;
  customerName: string;
  rows: Row[];
  sums: Sums;
}

export interface Sums {
  count: number;
  open: string;
  fee: string;
  flatFee: string;
  interest: string;
  charges: string;
}

export interface Workbench {
  date: string;
  policy: DunningPolicy;
  proposal: Group<ProposalRow>[];
  proposalSums: Sums;
  warnings: string[];
  waiting: Group<WaitingRow>[];
  waitingSums: Sums;
  /** Every customer of the proposal and the waiting list, for the customer filter. */
  customers: Array<{ id: string; name: string }>;
}

@Injectable()
export class WorkbenchService {
  constructor(
    private readonly dunning: DunningService,
    private readonly approvals: ApprovalsService,
    private readonly repository: DunningWebRepository,
  ) {}

  async load(company: CompanyContext, filters: WorkbenchFilters): Promise<Workbench> {
    const { date, outcome } = await this.dunning.proposal(company, filters.date);
    const waiting = await this.approvals.list(company, {}, { page: 1, perPage: WAITING_LIMIT, offset: 0 }, filters.date);
    const lastAction = new Map<string, string>();
    for (const step of outcome.steps) for (const id of step.invoiceIds) lastAction.set(id, step.action);
    const reminders = new Map(outcome.charges.map((r) => [r.invoiceId, r]));
    const summaries = await this.repository.summaries(company.id, [...lastAction.keys(), ...waiting.items.map((w) => w.invoiceId)]);
    const customers = new Map<string, string>();
    for (const summary of summaries.values()) customers.set(summary.customerId, summary.customerName);

    const proposal: ProposalRow[] = [];
    for (const [id, action] of lastAction) {
      const invoice = summaries.get(id);
      if (!invoice) continue;
      const reminder = reminders.get(id);
      const stage = reminder?.stage ?? stageOf(action);
      if (matches(filters, invoice, stage)) proposal.push({ invoice, action, reminder });
    }
    const waitingRows: WaitingRow[] = [];
    for (const item of waiting.items) {
      const invoice = summaries.get(item.invoiceId);
      if (invoice && matches(filters, invoice, item.stage)) waitingRows.push({ invoice, waiting: item });
    }
    const proposalGroups = group(proposal, (row) => row.reminder);
    const waitingGroups = group(waitingRows, (row) => row.waiting.charges);
    return {
      date,
      policy: waiting.policy,
      proposal: proposalGroups,
      proposalSums: total(proposalGroups),
      warnings: outcome.warnings,
      waiting: waitingGroups,
      waitingSums: total(waitingGroups),
      customers: [...customers].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name)),
    };
  }
}

/** The reminder stage an action leads to (or steps back from); undefined for due and collection. */
function stageOf(action: string): number | undefined {
  const match = /^(?:ready_for_reminder|step_back)([123])$/.exec(action);
  return match ? Number(match[1]) : undefined;
}

function matches(filters: WorkbenchFilters, invoice: InvoiceSummary, stage: number | undefined): boolean {
  return (!filters.customerId || invoice.customerId === filters.customerId) && (!filters.stage || stage === filters.stage);
}

function group<Row extends { invoice: InvoiceSummary }>(rows: Row[], charges: (row: Row) => IssuedReminder | undefined): Group<Row>[] {
  const groups = new Map<string, Group<Row>>();
  for (const row of rows) {
    const key = row.invoice.customerId;
    const found = groups.get(key) ?? { customerId: key, customerName: row.invoice.customerName, rows: [], sums: emptySums() };
    found.rows.push(row);
    found.sums = add(found.sums, row.invoice.openAmount, charges(row));
    groups.set(key, found);
  }
  return [...groups.values()].sort((a, b) => a.customerName.localeCompare(b.customerName));
}

function emptySums(): Sums {
  return { count: 0, open: '0.00', fee: '0.00', flatFee: '0.00', interest: '0.00', charges: '0.00' };
}

function add(sums: Sums, open: string, reminder: IssuedReminder | undefined): Sums {
  const plus = (a: string, b: string | undefined) => new Decimal(a).plus(b ?? 0).toFixed(2);
  const charges = reminder ? new Decimal(reminder.fee).plus(reminder.flatFee).plus(reminder.defaultInterest).toFixed(2) : '0';
  return {
    count: sums.count + 1,
    open: plus(sums.open, open),
    fee: plus(sums.fee, reminder?.fee),
    flatFee: plus(sums.flatFee, reminder?.flatFee),
    interest: plus(sums.interest, reminder?.defaultInterest),
    charges: plus(sums.charges, charges),
  };
}

function total<Row>(groups: Group<Row>[]): Sums {
  return groups.reduce(
    (sum, g) => ({
      count: sum.count + g.sums.count,
      open: new Decimal(sum.open).plus(g.sums.open).toFixed(2),
      fee: new Decimal(sum.fee).plus(g.sums.fee).toFixed(2),
      flatFee: new Decimal(sum.flatFee).plus(g.sums.flatFee).toFixed(2),
      interest: new Decimal(sum.interest).plus(g.sums.interest).toFixed(2),
      charges: new Decimal(sum.charges).plus(g.sums.charges).toFixed(2),
    }),
    emptySums(),
  );
}
