// The invoice page's operations beyond the status actions, through the same services as the API: edit
// the invoice (PATCH's InvoicesService.update), confirm a letter shipped by hand, ship a reminder again,
// and the statement of claim — each acted by the signed-in user.
import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors.js';
import { UpdateInvoiceDto } from '../../invoices/dto/update-invoice.dto.js';
import type { Actor } from '../../invoices/invoices.repository.js';
import { InvoicesService } from '../../invoices/invoices.service.js';
import { StatementsOfClaim } from '../../shipping/letters/statements-of-claim.service.js';
import { ShippingService } from '../../shipping/shipments/shipping.service.js';
import { companyOf } from '../web-pages.js';
import type { SignedInUser } from '../web-users.repository.js';
import { type FieldErrors, type FormValues, parseForm } from './form-input.js';
import { changedValues, currentValues, EDIT_FIELDS } from './invoice-operations.js';

const actorOf = (user: SignedInUser): Actor => ({ type: 'user', id: user.id });

/** Saved (with the fields that changed; none when the form came back as it was), or refused by field. */
export type EditOutcome = { ok: true; changed: string[] } | { ok: false; errors: FieldErrors };

@Injectable()
export class InvoiceOperationsService {
  constructor(
    private readonly invoices: InvoicesService,
    private readonly shipping: ShippingService,
    private readonly statements: StatementsOfClaim,
  ) {}

  async edit(user: SignedInUser, id: string, posted: FormValues, locale: string): Promise<EditOutcome> {
    const company = companyOf(user);
    const { invoice } = await this.invoices.get(company, id);
    const changes = changedValues(posted, currentValues(invoice, locale));
    if (Object.keys(changes).length === 0) return { ok: true, changed: [] };
    const parsed = await parseForm(UpdateInvoiceDto, changes);
    if (!parsed.ok) return parsed;
    try {
      await this.invoices.update(company, id, parsed.dto, actorOf(user));
    } catch (error) {
      // The service's refusal of a value (the dates do not fit together): beside the field it names.
      if (error instanceof AppError && error.status === 422 && error.errors.every((e) => isEditField(e.field))) {
        return { ok: false, errors: Object.fromEntries(error.errors.map((e) => [e.field, e.message])) };
      }
      throw error;
    }
    return { ok: true, changed: Object.keys(changes) };
  }

  /** The client posted the letter (of the invoice, or of a reminder) itself. */
  async confirmShipping(user: SignedInUser, id: string, reminderId: string | null): Promise<void> {
    await this.shipping.confirm(companyOf(user), id, reminderId, actorOf(user));
  }

  async shipReminderAgain(user: SignedInUser, id: string, reminderId: string): Promise<void> {
    await this.shipping.shipReminderAgain(companyOf(user), id, reminderId, actorOf(user));
  }

  statementOfClaim(user: SignedInUser, id: string) {
    return this.statements.pdf(companyOf(user), id);
  }
}

function isEditField(field: string | undefined): boolean {
  return EDIT_FIELDS.includes(field as (typeof EDIT_FIELDS)[number]);
}
