import { applyDecorators } from '@nestjs/common';
import { ApiHideProperty, OmitType } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import { OptionalDate, OptionalText } from '../../common/fields.js';
import { CreateInvoiceDto } from './create-invoice.dto.js';

/**
 * A field of the invoice that PATCH cannot change: refused by name (422) rather than dropped, so no
 * client believes it took effect. Keys that are no field of an invoice are ignored, as on every resource.
 */
const Unchangeable = (how: string) =>
  applyDecorators(
    ApiHideProperty(),
    ValidateBy({
      name: 'unchangeable',
      validator: {
        validate: (value) => value === undefined,
        defaultMessage: (args) => `${args?.property} cannot change with PATCH: ${how}`,
      },
    }),
  );

/** PATCH: the fields that may still change in the invoice's state (see InvoicesService.update). */
export class UpdateInvoiceDto extends OmitType(CreateInvoiceDto, ['customer', 'contact', 'options', 'customer_id'] as const) {
  /** A dunning block: the daily run raises no reminder while it holds (empty to lift it). */
  @OptionalText(500) readonly dunning_block_reason?: string | null;
  @OptionalDate('the block holds until this date inclusive; empty: until lifted') readonly dunning_block_until?: string | null;

  @Unchangeable('an invoice stays with its customer (create a new invoice; contact_id may change)') readonly customer_id?: unknown;
  @Unchangeable('nested customer data is taken on create; change the customer at /api/v1/customers/<id>') readonly customer?: unknown;
  @Unchangeable('nested contact data is taken on create; change the contact at /api/v1/contacts/<id> or set contact_id')
  readonly contact?: unknown;
  @Unchangeable('options act on create; send the invoice with POST …/release') readonly options?: unknown;
  @Unchangeable('the PDF of an invoice is kept as received') readonly invoice?: unknown;
  @Unchangeable('the attachment of an invoice is kept as received') readonly invoice_attachment?: unknown;
  @Unchangeable('the status changes through the actions (release, archive, mark_duplicate, write_off, …) and payments')
  readonly invoice_status?: unknown;
  @Unchangeable('it follows from total, reminder fees and payments (record a payment at POST …/payments)') readonly open_amount?: unknown;
  @Unchangeable('set total') readonly original_total?: unknown;
  @Unchangeable('reminder fees come from the dunning run') readonly reminder_fees?: unknown;
  @Unchangeable('write the invoice off with POST …/write_off') readonly written_off_at?: unknown;
  @Unchangeable('record payments at POST …/payments and delete them at DELETE …/payments/<id>') readonly payments?: unknown;
  @Unchangeable('reminders come from the dunning run') readonly reminders?: unknown;
}
