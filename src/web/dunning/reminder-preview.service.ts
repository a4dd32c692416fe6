// The preview of a reminder waiting for approval: approved, charged and rendered exactly as approval and
// dispatch do it (the approval's issue, the ledger's charge, the shipping context, the letter renderer
// and the e-mail text), inside a transaction that is rolled back — nothing is created, sent or stored.
import { Injectable } from '@nestjs/common';
import type { CompanyContext } from '../../auth/principal.js';
import { todayIn } from '../../common/calendar-date.js';
import { AppError } from '../../common/errors.js';
import { newUuid, parsePublicId } from '../../common/ids.js';
import { Invoice } from '../../invoices/invoice.entity.js';
import { InterestCharges } from '../../invoices/interest/interest-charges.js';
import { InvoiceLedger } from '../../invoices/ledger/invoice-ledger.js';
import { InvoicesRepository } from '../../invoices/invoices.repository.js';
import { Reminder } from '../../invoices/reminder.entity.js';
import { ApprovalsService } from '../../dunning/approvals/approvals.service.js';
import { DunningRunService } from '../../dunning/dunning-run.service.js';
import { type MailText, reminderMail } from '../../shipping/letters/mail-content.js';
import { type RenderedLetter, ShippingLetters } from '../../shipping/letters/shipping-letters.js';
import { emailRecipients } from '../../shipping/routing/recipients.js';
import { ShippingContexts } from '../../shipping/shipments/shipping-context.js';
import type { MailAddress } from '../../mail/mail-sender.js';

export interface ReminderPreview {
  invoiceNumber: string;
  stage: number;
  letter: RenderedLetter;
  /** The e-mail as it would go out; null when nobody has an e-mail address (the letter goes by post). */
  mail: (MailText & { to: MailAddress[] }) | null;
}

class Rollback extends Error {
  constructor(readonly preview: ReminderPreview) {
    super('preview only');
  }
}

@Injectable()
export class ReminderPreviews {
  constructor(
    private readonly approvals: ApprovalsService,
    private readonly runner: DunningRunService,
    private readonly invoices: InvoicesRepository,
    private readonly ledger: InvoiceLedger,
    private readonly interest: InterestCharges,
    private readonly contexts: ShippingContexts,
    private readonly letters: ShippingLetters,
  ) {}

  /** The waiting reminder of the invoice (inv-…); 404 for an invoice of another company or without one waiting. */
  async preview(company: CompanyContext, invoicePublicId: string, date?: string): Promise<ReminderPreview> {
    const invoiceId = parsePublicId('inv', invoicePublicId);
    const found = invoiceId ? await this.invoices.findById(company.id, invoiceId) : null;
    const notFound = new AppError('invoice.not_found', `Invoice ${invoicePublicId} has no reminder waiting for approval`);
    if (!found) throw notFound;
    const { items } = await this.approvals.list(company, { customerId: found.customerId }, { page: 1, perPage: 1000, offset: 0 }, date);
    const waiting = items.find((item) => item.invoiceId === found.id);
    if (!waiting) throw notFound;
    try {
      await this.invoices.transaction(async (m) => {
        const ctx = {
          companyId: company.id,
          runId: waiting.runId ?? newUuid(),
          date: waiting.businessDate ?? date ?? todayIn(company.timeZone),
        };
        const [issued] = await this.runner.approve(m, ctx, [found.id]);
        if (!issued) throw notFound;
        const reminder = await m.findOneByOrFail(Reminder, { companyId: company.id, id: issued.reminderId });
        const invoice = await m.findOneByOrFail(Invoice, { companyId: company.id, id: found.id });
        const charged = await this.ledger.charge(
          invoice,
          { reminderFees: reminder.fees, flatFee: reminder.flatFee, defaultInterest: reminder.defaultInterest },
          m,
        );
        const corrected = await this.interest.correct(m, charged, { type: 'run', id: reminder.runId });
        const shipping = await this.contexts.load(m, corrected, reminder);
        const letter = await this.letters.render(shipping);
        const recipients = emailRecipients(shipping.contact, shipping.customerContacts);
        const mail =
          recipients && shipping.terms
            ? { ...reminderMail(shipping, recipients.salutation, reminder, shipping.terms), to: recipients.to }
            : null;
        throw new Rollback({ invoiceNumber: found.invoiceNumber ?? invoicePublicId, stage: reminder.reminderStage, letter, mail });
      });
    } catch (error) {
      if (error instanceof Rollback) return error.preview;
      throw error;
    }
    throw new Error('unreachable');
  }
}
