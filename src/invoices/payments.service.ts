// Recording and deleting payments. The invoice row is locked for the whole change, so concurrent
// payments queue up and none is lost; money fields and status follow in the same transaction.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CompanyContext } from '../auth/principal.js';
import { todayIn } from '../common/calendar-date.js';
import { AppError, validationFailed } from '../common/errors.js';
import { Decimal, formatDecimal } from '../common/money.js';
import { DunningPolicyRepository } from '../companies/dunning-policy.repository.js';
import { newUuid, parsePublicId, toPublicId } from '../common/ids.js';
import type { CreatePaymentDto } from './dto/payment.dto.js';
import type { Invoice } from './invoice.entity.js';
import { isSettled, moneyFields, moneyStateOf } from './ledger/money.js';
import { canApply, type InvoiceStatus } from './invoice-status.js';
import { InterestCharges } from './interest/interest-charges.js';
import { InvoiceLedger } from './ledger/invoice-ledger.js';
import { InvoiceTransitions } from './ledger/invoice-transitions.js';
import { type Actor, InvoicesRepository } from './invoices.repository.js';
import type { Payment } from './payment.entity.js';
import { PaymentsRepository } from './payments.repository.js';

/** Archived and duplicate invoices are closed records: money is not booked on them. */
export const CLOSED: readonly InvoiceStatus[] = ['archived', 'duplicate'];

/** The payments' sum is kept in a numeric(14,2) column: beyond it the database would refuse the row. */
const MAX_PAID = new Decimal('1e12');

@Injectable()
export class PaymentsService {
  constructor(
    private readonly invoices: InvoicesRepository,
    private readonly payments: PaymentsRepository,
    private readonly transitions: InvoiceTransitions,
    private readonly ledger: InvoiceLedger,
    private readonly policies: DunningPolicyRepository,
    private readonly interest: InterestCharges,
  ) {}

  async record(company: CompanyContext, invoicePublicId: string, dto: CreatePaymentDto, actor: Actor, source = 'API') {
    return this.invoices.transaction((manager) => this.recordWith(manager, company, invoicePublicId, dto, actor, source));
  }

  /** record() inside the caller's transaction (the push worker books a payment together with its processed marker). */
  async recordWith(
    manager: EntityManager,
    company: CompanyContext,
    invoicePublicId: string,
    dto: CreatePaymentDto,
    actor: Actor,
    source = 'API',
  ) {
    const invoice = await this.lock(company, invoicePublicId, manager);
    if (CLOSED.includes(invoice.status)) {
      throw new AppError('payment.not_allowed', `No payment can be recorded on an invoice in status ${invoice.status}`);
    }
    if (new Decimal(invoice.paidAmount).plus(dto.amount).greaterThanOrEqualTo(MAX_PAID)) {
      throw validationFailed([{ field: 'amount', message: 'the payments of one invoice can add up to at most 999999999999.99' }]);
    }
    const payment = await this.payments.insert(
      company.id,
      invoice.id,
      newUuid(),
      {
        amount: dto.amount.toFixed(2),
        paymentDate: dto.payment_date ?? todayIn(company.timeZone),
        externalId: dto.external_id ?? null,
        note: dto.note ?? null,
        source,
        inkassoPayment: dto.inkasso_payment ?? false,
      },
      manager,
    );
    const details = { payment_id: toPublicId('pay', payment.id), amount: formatDecimal(payment.amount) };
    await this.invoices.addEvent(invoice, actor, { kind: 'payment_recorded', details }, manager);
    // A payment dated on or before days already charged (back-dated) corrects their interest first.
    const corrected = await this.interest.correct(manager, invoice, actor);
    return this.rebalance(corrected, actor, manager, 'payment recorded');
  }

  async remove(company: CompanyContext, invoicePublicId: string, paymentId: string, actor: Actor): Promise<Invoice> {
    return this.invoices.transaction((manager) => this.removeWith(manager, company, invoicePublicId, paymentId, actor));
  }

  /** remove() inside the caller's transaction. */
  async removeWith(
    manager: EntityManager,
    company: CompanyContext,
    invoicePublicId: string,
    paymentId: string,
    actor: Actor,
  ): Promise<Invoice> {
    const invoice = await this.lock(company, invoicePublicId, manager);
    const payment = await this.findPayment(company, invoice, paymentId, manager);
    if (CLOSED.includes(invoice.status)) {
      throw new AppError('payment.not_allowed', `The payments of an invoice in status ${invoice.status} cannot be deleted`);
    }
    await this.payments.delete(payment, manager);
    const details = { payment_id: toPublicId('pay', payment.id), amount: formatDecimal(payment.amount) };
    await this.invoices.addEvent(invoice, actor, { kind: 'payment_deleted', details }, manager);
    const corrected = await this.interest.correct(manager, invoice, actor);
    return this.rebalance(corrected, actor, manager, 'payment deleted');
  }

  /**
   * Recomputes the money fields from the payments, then settles or reopens the invoice as they say.
   * The remainder rule: when the payments reach the original total but fees or interest remain, the
   * policy waives the rest (recorded in a rest_waived event) or pursues it. A waiver stands only while
   * the payments still reach that total and only as far as the rest is still open: a deleted payment, or
   * money that pays the rest after all, revokes it (waiver_revoked), never silently.
   */
  private async rebalance(invoice: Invoice, actor: Actor, manager: EntityManager, reason: string): Promise<Invoice> {
    const paidAmount = await this.payments.sum(invoice.companyId, invoice.id, manager);
    const state = { ...moneyStateOf(invoice), paidAmount, waivedAmount: 0 };
    const rest = Decimal.max(0, moneyFields(state).openAmount);
    const before = new Decimal(invoice.waivedAmount);
    let waived = new Decimal(0);
    if (new Decimal(paidAmount).greaterThanOrEqualTo(invoice.originalTotal) && rest.greaterThan(0)) {
      waived = (await this.policies.get(invoice.companyId, manager)).waiveRemainder ? rest : Decimal.min(before, rest);
    }
    const money = moneyFields({ ...state, waivedAmount: waived });
    if (waived.greaterThan(before)) {
      const details = { waived: formatDecimal(waived.minus(before)), waived_amount: formatDecimal(waived) };
      await this.invoices.addEvent(
        invoice,
        actor,
        {
          kind: 'rest_waived',
          reason:
            'the original total is paid; the remainder of the principal left by § 367 BGB (costs and interest were paid first) is waived',
          details,
        },
        manager,
      );
    } else if (waived.lessThan(before)) {
      const why = new Decimal(paidAmount).lessThan(invoice.originalTotal)
        ? 'the payments no longer reach the original total'
        : 'the waived rest was paid after all';
      const details = { revoked: formatDecimal(before.minus(waived)), waived_amount: formatDecimal(waived) };
      await this.invoices.addEvent(invoice, actor, { kind: 'waiver_revoked', reason: why, details }, manager);
    }
    let updated = await this.ledger.book(invoice, money, manager);
    if (new Decimal(money.openAmount).lessThan(Decimal.min(0, invoice.openAmount))) {
      // The surplus stays on this invoice as the customer's credit; nothing moves it to another invoice by itself.
      await this.invoices.addEvent(
        invoice,
        actor,
        { kind: 'customer_credit', reason: 'overpaid', details: { credit: formatDecimal(new Decimal(money.openAmount).negated()) } },
        manager,
      );
    }
    if (invoice.status === 'written_off' && new Decimal(paidAmount).greaterThan(invoice.paidAmount)) {
      const details = {
        amount: formatDecimal(new Decimal(paidAmount).minus(invoice.paidAmount)),
        open_amount: formatDecimal(money.openAmount),
      };
      const why = isSettled(money)
        ? 'payment after write-off: fully recovered'
        : 'payment after write-off; the invoice stays written off until fully recovered';
      await this.invoices.addEvent(invoice, actor, { kind: 'recovery_recorded', reason: why, details }, manager);
    }
    if (isSettled(money) && canApply('settle', updated.status)) {
      updated = await this.transitions.apply(manager, updated, 'settle', actor, reason);
    } else if (!isSettled(money) && updated.status === 'paid') {
      updated = await this.transitions.apply(manager, updated, 'reopen', actor, reason);
    }
    return updated;
  }

  private async lock(company: CompanyContext, publicId: string, manager: EntityManager): Promise<Invoice> {
    const id = parsePublicId('inv', publicId);
    const invoice = id ? await this.invoices.lockById(company.id, id, manager) : null;
    if (!invoice) throw new AppError('invoice.not_found', `Invoice ${publicId} was not found`);
    return invoice;
  }

  private async findPayment(company: CompanyContext, invoice: Invoice, paymentId: string, manager: EntityManager): Promise<Payment> {
    const uuid = parsePublicId('pay', paymentId);
    const payment = uuid ? await this.payments.findOne(company.id, invoice.id, uuid, manager) : null;
    if (!payment) throw new AppError('payment.not_found', `Payment ${paymentId} was not found on this invoice`);
    return payment;
  }
}
