import { OmitType } from '@nestjs/swagger';
import { OptionalDate, OptionalText } from '../../common/fields.js';
import { CreateInvoiceDto } from './create-invoice.dto.js';

/** PATCH: the fields that may still change in the invoice's status (see InvoicesService.update). */
export class UpdateInvoiceDto extends OmitType(CreateInvoiceDto, ['customer', 'contact', 'options', 'customer_id'] as const) {
  /** A dunning block: the daily run raises no reminder while it holds (empty to lift it). */
  @OptionalText(500) readonly dunning_block_reason?: string | null;
  @OptionalDate('the block holds until this date inclusive; empty: until lifted') readonly dunning_block_until?: string | null;
}
