// The multipart body of "Create invoice": the text parameters of CreateInvoiceDto next to the two PDF
// files, which the upload interceptor reads before validation (src/documents/pdf-upload.ts).
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { CreateInvoiceDto } from './create-invoice.dto.js';

@ApiSchema({
  name: 'CreateInvoiceForm',
  description:
    'multipart/form-data; nested parameters are sent with bracket names: customer[name], contact[email], options[autosend]. ' +
    'customer[...] / contact[...] create the customer or contact with the invoice, or update the one with that external_id.',
})
export class CreateInvoiceFormSchema extends CreateInvoiceDto {
  @ApiProperty({ type: 'string', format: 'binary', description: 'The invoice PDF (checked to be a real PDF, at most MAX_UPLOAD_MB)' })
  readonly invoice!: unknown;

  @ApiProperty({ type: 'string', format: 'binary', required: false, description: 'A PDF attachment, not the invoice itself' })
  readonly invoice_attachment?: unknown;
}
