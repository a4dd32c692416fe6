// Recording and deleting payments. The invoice row is locked for the whole change, so concurrent
// payments queue up and none is lost; money fields and status follow in the same transaction.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CompanyContext } from '../auth/principal.js';
import { todayIn } from '../common/calendar-date.js';
import { AppError } from '../common/errors.js';
import { newUuid, parsePublicId } from '../common/ids.js';
import type { CreatePaymentDto } from './dto/payment.dto.js';
import type { Invoice } from './invoice.entity.js';
import { isSettled, moneyFields } from './invoice-money.js';
import { canApply, type InvoiceStatus } from './invoice-status.js';
import { InvoiceTransitions } from './invoice-transitions.js';
import { type Actor, InvoicesRepository } from './invoices.repository.js';
import type { Payment } from './payment.entity.js';
import { PaymentsRepository } from './payments.repository.js';

/** Archived and duplicate invoices are closed records: money is not booked on them. */
const CLOSED: readonly InvoiceStatus[] = ['archived', 'duplicate'];

@Injectable()
export class PaymentsService {
  constructor(
    private readonly invoices: InvoicesRepository,
    private readonly payments: PaymentsRepository,
    private readonly transitions: InvoiceTransitions,
  ) {}

  async record(company: CompanyContext, invoicePublicId: string, dto: CreatePaymentDto, actor: Actor, source = 'API') {
    return this.invoices.transaction(async (manager) => {
      const invoice = await this.lock(company, invoicePublicId, manager);
      if (CLOSED.includes(invoice.status)) {
        throw new AppError('payment.not_allowed', `No payments can be recorded on a ${invoice.status} invoice`);
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
      const details = { payment_id: payment.id, amount: payment.amount };
      await this.invoices.addEvent(invoice, actor, { kind: 'payment_recorded', details }, manager);
      return this.rebalance(invoice, actor, manager, 'payment recorded');
    });
  }

  async remove(company: CompanyContext, invoicePublicId: string, paymentId: string, actor: Actor): Promise<Invoice> {
    return this.invoices.transaction(async (manager) => {
      const invoice = await this.lock(company, invoicePublicId, manager);
      const payment = await this.findPayment(company, invoice, paymentId, manager);
      if (CLOSED.includes(invoice.status)) {
        throw new AppError('payment.not_allowed', `Payments of a ${invoice.status} invoice cannot be deleted`);
      }
      await this.payments.delete(payment, manager);
      const details = { payment_id: payment.id, amount: payment.amount };
      await this.invoices.addEvent(invoice, actor, { kind: 'payment_deleted', details }, manager);
      return this.rebalance(invoice, actor, manager, 'payment deleted');
    });
  }

  /** Recomputes the money fields from the payments, then settles or reopens the invoice as they say. */
  private async rebalance(invoice: Invoice, actor: Actor, manager: EntityManager, reason: string): Promise<Invoice> {
    const paidAmount = await this.payments.sum(invoice.companyId, invoice.id, manager);
    const money = moneyFields({ originalTotal: invoice.originalTotal, reminderFees: invoice.reminderFees, paidAmount });
    let updated = await this.invoices.update(invoice, money, manager);
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
    if (!invoice) throw new AppError('invoice.not_found', `Invoice ${publicId} not found`);
    return invoice;
  }

  private async findPayment(company: CompanyContext, invoice: Invoice, paymentId: string, manager: EntityManager): Promise<Payment> {
    const uuid = parsePublicId('pay', paymentId);
    const payment = uuid ? await this.payments.findOne(company.id, invoice.id, uuid, manager) : null;
    if (!payment) throw new AppError('payment.not_found', `Payment ${paymentId} not found on this invoice`);
    return payment;
  }
}
