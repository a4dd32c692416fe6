import { OmitType } from '@nestjs/swagger';
import { CreateInvoiceDto } from './create-invoice.dto.js';

/** PATCH: the fields that may still change in the invoice's status (see InvoicesService.update). */
export class UpdateInvoiceDto extends OmitType(CreateInvoiceDto, ['customer', 'contact', 'options', 'customer_id'] as const) {}
