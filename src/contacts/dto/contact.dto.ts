import { ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsOptional, ValidateNested } from 'class-validator';
import { IsEmailAddress, OptionalText, RequiredChoice, RequiredText } from '../../common/fields.js';

export class CustomerReferenceDto {
  @RequiredText(255, 'ERP-4711') readonly external_id!: string;
}

/** The parameters of "Create contact" in the spec. */
export class CreateContactDto {
  @RequiredText(255, 'Erika Mustermann') readonly name!: string;
  @RequiredChoice([0, 1, 2] as const, '0 = unknown, 1 = male, 2 = female') readonly gender!: 0 | 1 | 2;
  @RequiredChoice([0, 1] as const, '0 = formal, 1 = informal') readonly salutation!: 0 | 1;
  @OptionalText(50) readonly customer_id?: string | null;

  @ApiPropertyOptional({ type: CustomerReferenceDto, description: 'customer[external_id]: the client’s id of the customer' })
  @IsOptional()
  @ValidateNested()
  @Type(() => CustomerReferenceDto)
  readonly customer?: CustomerReferenceDto;

  @OptionalText(50) readonly phone?: string | null;
  @OptionalText(255) readonly external_id?: string | null;
  @OptionalText(254, 'erika@muster.de')
  @IsEmailAddress()
  readonly email?: string | null;
}

/** PATCH takes every create parameter (moving a contact to another customer included). */
export class UpdateContactDto extends PartialType(CreateContactDto, { skipNullProperties: false }) {}
