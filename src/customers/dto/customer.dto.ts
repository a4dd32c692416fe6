import { PartialType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsISO31661Alpha2 } from 'class-validator';
import { OptionalBoolean, OptionalEnum, OptionalText, RequiredText } from '../../common/fields.js';
import { CUSTOMER_SHIPPING_MODES, CUSTOMER_TYPES, type CustomerShippingMode, type CustomerType } from '../customer.entity.js';

/** The parameters of "Create customer" in the spec. */
export class CreateCustomerDto {
  @RequiredText(255, 'Muster GmbH') readonly name!: string;
  @RequiredText(255, 'Muster GmbH') readonly address_line1!: string;
  @RequiredText(255, 'Musterstraße 1') readonly address_line3!: string;
  @RequiredText(20, '10115') readonly zip!: string;
  @RequiredText(255, 'Berlin') readonly city!: string;

  @RequiredText(2, 'DE')
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value))
  @IsISO31661Alpha2({ message: 'country_code must be an ISO 3166-1 alpha-2 country code' })
  readonly country_code!: string;

  @OptionalText(50, '+49 30 1234567') readonly phone?: string | null;
  @OptionalText(255, 'z. Hd. Erika Mustermann') readonly address_line2?: string | null;
  @OptionalText(255) readonly address_line4?: string | null;
  @OptionalText(100, 'K-10001') readonly customer_number?: string | null;
  @OptionalText(100) readonly additional_number?: string | null;
  @OptionalText(255, 'ERP-4711') readonly external_id?: string | null;
  @OptionalText(255) readonly customer_group_id?: string | null;
  @OptionalBoolean() readonly stop_automatic_reminders?: boolean;
  @OptionalEnum(CUSTOMER_SHIPPING_MODES, 'empty: the company setting applies')
  readonly shipping_mode?: CustomerShippingMode | null;
  @OptionalText(5000) readonly note?: string | null;
  /** Extension of the spec: business (default) or consumer, for default interest and the flat fee. */
  @OptionalEnum(CUSTOMER_TYPES, 'business (default) or consumer') readonly customer_type?: CustomerType | null;
}

/** PATCH takes every create parameter; absent ones stay, required ones cannot be cleared. */
export class UpdateCustomerDto extends PartialType(CreateCustomerDto, { skipNullProperties: false }) {}
