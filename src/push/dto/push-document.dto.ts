// The JSON bodies of POST /v2/documents, one class per document_type (the OpenAPI document lists
// each). Amounts accept 119.5, "119.50" and "119,50"; dates DD.MM.YYYY or YYYY-MM-DD.
import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBase64, IsDefined, IsIn, IsOptional, ValidateNested } from 'class-validator';
import { CreateCustomerDto } from '../../customers/dto/customer.dto.js';
import { InvoiceOptionsDto } from '../../invoices/dto/create-invoice.dto.js';
import { INVOICE_SHIPPING_MODES, type InvoiceShippingMode } from '../../invoices/invoice.entity.js';
import { SUPPLY_VAT_RATES, type SupplyVatRate } from '../../invoices/invoice-supply.js';
import {
  OptionalAmount,
  OptionalBoolean,
  OptionalDate,
  OptionalEnum,
  OptionalInteger,
  OptionalText,
  RequiredAmount,
  RequiredChoice,
  RequiredText,
} from '../../common/fields.js';
import type { Decimal } from '../../common/money.js';

export const DOCUMENT_TYPES = ['invoice', 'credit_memo', 'payment', 'customer'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export class PushDocumentBaseDto {
  @ApiProperty({ enum: DOCUMENT_TYPES })
  @IsDefined({ message: 'document_type is required' })
  @IsIn(DOCUMENT_TYPES, { message: `document_type must be one of ${DOCUMENT_TYPES.join(', ')}` })
  readonly document_type!: DocumentType;

  /** The client's id of the document: re-pushing the same external_id changes the same record. */
  @RequiredText(255, 'RE-2026-0042') readonly external_id!: string;
}

export class PaymentDocumentDto extends PushDocumentBaseDto {
  @ApiProperty({ enum: ['payment'] }) override readonly document_type!: 'payment';
  @RequiredAmount({ positive: true }) readonly amount!: Decimal;
  @RequiredText(255, 'RE-2026-0042') readonly invoice_external_id!: string;
  @OptionalDate('the day the money arrived; default: the day it is processed') readonly payment_date?: string | null;
  @OptionalText(2000) readonly note?: string | null;
  @OptionalBoolean() readonly inkasso_payment?: boolean;
}

export class CreditMemoDocumentDto extends PushDocumentBaseDto {
  @ApiProperty({ enum: ['credit_memo'] }) override readonly document_type!: 'credit_memo';
  @RequiredAmount({ positive: true }) readonly amount!: Decimal;
  @RequiredText(255, 'RE-2026-0042') readonly invoice_external_id!: string;
  @OptionalDate('the credit memo date; default: the day it is processed') readonly credit_date?: string | null;
  @OptionalText(2000) readonly note?: string | null;
}

/** The customer's master data, nested in an invoice document; its external_id is the invoice's customer_external_id. */
export class PushedCustomerDto extends OmitType(CreateCustomerDto, ['external_id'] as const) {}

/** One line of what was supplied (§ 14 (4) Nr. 5 UStG): the service prints it on the invoice it renders. */
export class InvoiceLineItemDto {
  @RequiredText(500, 'Beratung') readonly description!: string;
  @OptionalAmount() readonly quantity?: Decimal | null;
  @OptionalText(20, 'Std.') readonly unit?: string | null;
  @OptionalAmount() readonly unit_price?: Decimal | null;
  @RequiredAmount() readonly net_amount!: Decimal;
  @RequiredChoice(SUPPLY_VAT_RATES, 'VAT rate in percent') readonly vat_rate!: SupplyVatRate;
}

export class InvoiceDocumentDto extends PushDocumentBaseDto {
  @ApiProperty({ enum: ['invoice'] }) override readonly document_type!: 'invoice';
  @RequiredAmount() readonly amount!: Decimal;
  @RequiredText(255, 'ERP-4711') readonly customer_external_id!: string;

  @ApiPropertyOptional({ type: PushedCustomerDto, description: 'creates the customer, or updates the one with customer_external_id' })
  @IsOptional()
  @ValidateNested()
  @Type(() => PushedCustomerDto)
  readonly customer?: PushedCustomerDto;

  @OptionalText(100) readonly invoice_number?: string | null;
  @OptionalText(255) readonly additional_number?: string | null;
  @OptionalAmount() readonly net?: Decimal | null;
  @OptionalAmount() readonly vat7?: Decimal | null;
  @OptionalAmount() readonly vat19?: Decimal | null;
  @OptionalDate() readonly order_date?: string | null;
  @OptionalDate() readonly invoice_date?: string | null;
  @OptionalDate() readonly due_date?: string | null;
  @OptionalInteger(0, 3650) readonly time_for_payment?: number | null;
  @OptionalEnum(INVOICE_SHIPPING_MODES) readonly shipping_mode?: InvoiceShippingMode | null;

  @ApiPropertyOptional({
    type: [InvoiceLineItemDto],
    nullable: true,
    description:
      "what was supplied, for the invoice the service renders when the document has no pdf; needs net, and the lines' net amounts add up to it",
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => InvoiceLineItemDto)
  readonly line_items?: InvoiceLineItemDto[] | null;

  @OptionalDate('the day of the supply (the first day of a period with delivery_end_date)') readonly delivery_date?: string | null;
  @OptionalDate('the last day of a period of supply') readonly delivery_end_date?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'byte',
    description:
      'the invoice PDF, base64, at most MAX_UPLOAD_MB (default 20 MB; 413 beyond); without it the service renders one from the fields',
  })
  @IsOptional()
  @IsBase64({}, { message: 'pdf must be a base64-encoded PDF' })
  readonly pdf?: string;

  @ApiPropertyOptional({ type: InvoiceOptionsDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => InvoiceOptionsDto)
  readonly options?: InvoiceOptionsDto;
}

export class CustomerDocumentDto extends OmitType(CreateCustomerDto, ['external_id'] as const) {
  @ApiProperty({ enum: ['customer'] })
  @IsIn(['customer'])
  readonly document_type!: 'customer';

  @RequiredText(255, 'ERP-4711') readonly external_id!: string;

  /** The integration guide's body always carries an amount; a customer has none, so it is accepted and ignored. */
  @OptionalAmount() readonly amount?: Decimal | null;
}

export const DOCUMENT_CLASSES = {
  invoice: InvoiceDocumentDto,
  credit_memo: CreditMemoDocumentDto,
  payment: PaymentDocumentDto,
  customer: CustomerDocumentDto,
} as const;

/** The stored, normalized payloads (amounts as "119.50", dates as YYYY-MM-DD), as the worker reads them. */
export interface PaymentPayload {
  amount: string;
  invoice_external_id: string;
  payment_date?: string | null;
  note?: string | null;
  inkasso_payment?: boolean;
}
export interface CreditMemoPayload {
  amount: string;
  invoice_external_id: string;
  credit_date?: string | null;
  note?: string | null;
}
export interface LineItemPayload {
  description: string;
  quantity?: string | null;
  unit?: string | null;
  unit_price?: string | null;
  net_amount: string;
  vat_rate: SupplyVatRate;
}
export type CustomerPayload = Record<string, unknown> & { name: string };
export interface InvoicePayload {
  amount: string;
  customer_external_id: string;
  customer?: Record<string, unknown>;
  invoice_number?: string | null;
  additional_number?: string | null;
  net?: string | null;
  vat7?: string | null;
  vat19?: string | null;
  order_date?: string | null;
  invoice_date?: string | null;
  due_date?: string | null;
  time_for_payment?: number | null;
  shipping_mode?: InvoiceShippingMode | null;
  line_items?: LineItemPayload[] | null;
  delivery_date?: string | null;
  delivery_end_date?: string | null;
  pdf?: string;
  options?: { autoskip_shipping?: boolean; autosend?: boolean };
}
