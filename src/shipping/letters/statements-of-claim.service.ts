// The statement of claim of an invoice handed to debt collection, as PDF: read from the invoice's
// records (another company's invoice is a 404 like an unknown one), assembled, rendered. Before the
// hand-over there is no claim to state (409 invoice.not_handed_over).
import { Injectable } from '@nestjs/common';
import type { CompanyContext } from '../../auth/principal.js';
import { todayIn } from '../../common/calendar-date.js';
import { AppError } from '../../common/errors.js';
import { DunningPolicyRepository } from '../../companies/dunning-policy.repository.js';
import { InterestLines } from '../../invoices/interest/interest-lines.repository.js';
import { InvoicesService } from '../../invoices/invoices.service.js';
import { renderStatementOfClaim } from '../../letters/statement-of-claim.js';
import { ShippingSettingsRepository } from '../settings/shipping-settings.repository.js';
import { invoiceNumberOf, recipientLines, senderOf } from './letter-content.js';
import { FILE_NAME } from '../../letters/messages.de.js';
import type { RenderedLetter } from './shipping-letters.js';
import { assembleStatement } from './statement-of-claim.assembler.js';

/** The status the hand-over (hand_to_collection) leads to; from then on the statement exists. */
export const HANDED_OVER = 'sent_to_dept_collection';

@Injectable()
export class StatementsOfClaim {
  constructor(
    private readonly invoices: InvoicesService,
    private readonly settings: ShippingSettingsRepository,
    private readonly policies: DunningPolicyRepository,
    private readonly interest: InterestLines,
  ) {}

  async pdf(company: CompanyContext, invoicePublicId: string): Promise<Pick<RenderedLetter, 'pdf' | 'filename'>> {
    const { invoice, customer, payments, reminders } = await this.invoices.get(company, invoicePublicId);
    const events = await this.invoices.events(company, invoicePublicId);
    if (invoice.status !== HANDED_OVER && !events.some((event) => event.toStatus === HANDED_OVER)) {
      throw new AppError(
        'invoice.not_handed_over',
        `The statement of claim exists once the invoice was handed to debt collection (hand_to_collection); it is ${invoice.status}`,
      );
    }
    const [settings, policy, interestLines] = await Promise.all([
      this.settings.forLetters(company.id),
      this.policies.get(company.id),
      this.interest.forInvoice(undefined, company.id, invoice.id),
    ]);
    const sender = senderOf(company.name, settings);
    const number = invoiceNumberOf(invoice);
    const lines = recipientLines(customer, settings.senderCountryCode);
    const model = assembleStatement({
      invoice,
      number,
      sender,
      debtor: { name: customer.name, address: lines[0] === customer.name ? lines.slice(1) : lines },
      reminders,
      payments,
      interestLines,
      stages: policy.levels.map((level, i) => ({ title: settings.templates.reminderTitles[i], fee: level.fee })),
      madeOn: todayIn(company.timeZone),
    });
    const pdf = Buffer.from(await renderStatementOfClaim(model));
    return { pdf, filename: FILE_NAME.statementOfClaim(number.replace(/[^\w.-]+/g, '_')) };
  }
}
