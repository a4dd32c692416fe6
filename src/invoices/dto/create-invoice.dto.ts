import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsOptional, ValidateNested } from 'class-validator';
import { UpdateContactDto } from '../../contacts/dto/contact.dto.js';
import { UpdateCustomerDto } from '../../customers/dto/customer.dto.js';
import { OptionalAmount, OptionalBoolean, OptionalDate, OptionalEnum, OptionalInteger, OptionalText } from '../../common/fields.js';
import type { Decimal } from '../../common/money.js';
import { INVOICE_SHIPPING_MODES, type InvoiceShippingMode } from '../invoice.entity.js';

export class InvoiceOptionsDto {
  @OptionalBoolean() readonly autoskip_shipping?: boolean;
  @OptionalBoolean() readonly autosend?: boolean;
}

/** The nested contact of an extended create: the contact parameters without a customer reference. */
export class NestedContactDto extends UpdateContactDto {}

/** The text parameters of "Create invoice" (multipart); the files come as `invoice` and `invoice_attachment`. */
export class CreateInvoiceDto {
  @OptionalText(255) readonly external_id?: string | null;
  @OptionalText(50) readonly customer_id?: string | null;
  @OptionalText(50) readonly contact_id?: string | null;
  @OptionalText(100) readonly invoice_number?: string | null;
  @OptionalText(255) readonly additional_number?: string | null;
  @OptionalAmount() readonly total?: Decimal | null;
  @OptionalAmount() readonly net?: Decimal | null;
  @OptionalAmount() readonly vat7?: Decimal | null;
  @OptionalAmount() readonly vat19?: Decimal | null;
  @OptionalDate() readonly order_date?: string | null;
  @OptionalDate() readonly invoice_date?: string | null;
  @OptionalDate() readonly due_date?: string | null;
  @OptionalInteger(0, 3650) readonly time_for_payment?: number | null;
  @OptionalEnum(INVOICE_SHIPPING_MODES, 'empty: the customer’s shipping mode applies') readonly shipping_mode?: InvoiceShippingMode | null;
  @OptionalBoolean() readonly ignore_reminder_fees?: boolean;

  @ApiPropertyOptional({ type: InvoiceOptionsDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => InvoiceOptionsDto)
  readonly options?: InvoiceOptionsDto;

  @ApiPropertyOptional({
    type: UpdateCustomerDto,
    description: 'customer[...]: creates the customer, or updates the one with this customer[external_id]',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => UpdateCustomerDto)
  readonly customer?: UpdateCustomerDto;

  @ApiPropertyOptional({
    type: NestedContactDto,
    description: 'contact[...]: creates the contact, or updates the one with this contact[external_id]',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => NestedContactDto)
  readonly contact?: NestedContactDto;
}
