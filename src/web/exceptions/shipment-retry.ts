// Shipping a flagged document again, and correcting what stood in its way first: through the services
// of the API (release of the invoice, POST …/reminders/<id>/ship, PATCH of the contact or customer),
// with the API's own validation of the fields (its DTOs through the same pipe).
import { Injectable } from '@nestjs/common';
import type { CompanyContext } from '../../auth/principal.js';
import { AppError } from '../../common/errors.js';
import { createValidationPipe } from '../../common/validation.js';
import { ContactsService } from '../../contacts/contacts.service.js';
import { CreateContactDto, UpdateContactDto } from '../../contacts/dto/contact.dto.js';
import { CustomersService } from '../../customers/customers.service.js';
import { UpdateCustomerDto } from '../../customers/dto/customer.dto.js';
import type { Actor } from '../../invoices/invoices.repository.js';
import { ReleaseService } from '../../shipping/release/release.service.js';
import { ShippingService } from '../../shipping/shipments/shipping.service.js';
import type { Notice } from './exception-pages.js';

const pipe = createValidationPipe();

/** Why one document could not go out again, as a catalogue key under exceptions.shipments.error. */
function refusalOf(error: AppError): { key: string; detail?: string } {
  switch (error.code) {
    case 'shipping.not_routable':
      return { key: 'notRoutable', detail: error.errors[0]?.field === 'shipping_mode' ? 'unknownMode' : 'noEmail' };
    case 'shipping.in_progress':
      return { key: 'inProgress' };
    case 'shipping.not_shippable':
      return { key: 'notShippable' };
    case 'invoice.transition_not_allowed':
      return { key: 'notAllowed' };
    default:
      return { key: error.status === 404 ? 'notFound' : 'other' };
  }
}

export const ADDRESS_FIELDS = ['address_line1', 'address_line2', 'address_line3', 'address_line4', 'zip', 'city', 'country_code'] as const;

@Injectable()
export class ShipmentRetry {
  constructor(
    private readonly release: ReleaseService,
    private readonly shipping: ShippingService,
    private readonly contacts: ContactsService,
    private readonly customers: CustomersService,
  ) {}

  /**
   * Ships each document again; `label` names one in the notices. Answers the notices: how many went on
   * their way, and one line per document refused with the reason (nothing changed for that one).
   */
  async retry(
    company: CompanyContext,
    actor: Actor,
    documents: Array<{ invoice: string; reminder: string | null; label: string }>,
    t: (key: string, values?: Record<string, unknown>) => string,
  ): Promise<Notice[]> {
    let shipped = 0;
    const refused: Notice[] = [];
    for (const document of documents) {
      try {
        if (document.reminder) await this.shipping.shipReminderAgain(company, document.invoice, document.reminder, actor);
        else await this.release.release(company, document.invoice, actor, null);
        shipped++;
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        // One document of another company (or none): the 404 page, as for any record not found.
        if (error.status === 404 && documents.length === 1) throw error;
        const { key, detail } = refusalOf(error);
        const reason = t(`exceptions.shipments.error.${key}`, { detail: detail ? t(`exceptions.shipments.group.${detail}`) : '' });
        refused.push({ key: 'exceptions.shipments.failedItem', values: { document: document.label, reason }, error: true });
      }
    }
    return [...(shipped ? [{ key: 'exceptions.shipments.retried', values: { count: shipped } }] : []), ...refused];
  }

  /**
   * Corrects the e-mail address of a contact (or adds a contact with one to a customer that has none).
   * Answers the name of who was changed; invalid fields are a validation.failed AppError naming them.
   */
  async fixEmail(company: CompanyContext, form: { contact?: string; customer?: string; name?: string; email: string }): Promise<string> {
    if (form.contact) {
      const dto = (await pipe.transform({ email: form.email }, { type: 'body', metatype: UpdateContactDto })) as UpdateContactDto;
      return (await this.contacts.update(company, form.contact, dto)).contact.name;
    }
    const customer = await this.customers.require(company, form.customer ?? '');
    const dto = (await pipe.transform(
      { name: form.name, email: form.email, gender: 0, salutation: 0, customer_id: form.customer },
      { type: 'body', metatype: CreateContactDto },
    )) as CreateContactDto;
    await this.contacts.create(company, dto);
    return customer.name;
  }

  /** Corrects the customer's postal address with the API's rules for its fields. */
  async fixAddress(company: CompanyContext, customerId: string, values: Record<string, string>): Promise<string> {
    await this.customers.require(company, customerId);
    const dto = (await pipe.transform(values, { type: 'body', metatype: UpdateCustomerDto })) as UpdateCustomerDto;
    return (await this.customers.update(company, customerId, dto)).customer.name;
  }
}
