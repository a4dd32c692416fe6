import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsOptional, Matches, ValidateNested } from 'class-validator';
import { OptionalAmount, OptionalBoolean, OptionalInteger, OptionalText } from '../../common/fields.js';
import type { Decimal } from '../../common/money.js';

export class DunningLevelDto {
  @OptionalInteger(0, 365) readonly wait_days?: number;
  @OptionalAmount() readonly fee?: Decimal;
  @OptionalAmount() readonly minimum_open_amount?: Decimal;
  @OptionalInteger(1, 90) readonly payment_term_days?: number;
  @OptionalText(2000) readonly text?: string;
}

/** PUT /api/v1/dunning_policy: fields left out keep the defaults. */
export class DunningPolicyDto {
  @ApiPropertyOptional({ type: [DunningLevelDto], minItems: 3, maxItems: 3, description: 'levels 1, 2 and 3, in order' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(3)
  @ArrayMaxSize(3)
  @ValidateNested({ each: true })
  @Type(() => DunningLevelDto)
  readonly levels?: DunningLevelDto[];

  @OptionalInteger(0, 90) readonly grace_days?: number;
  @OptionalInteger(0, 365) readonly collection_days?: number;
  @OptionalBoolean() readonly auto_ship?: boolean;
  @ApiPropertyOptional({
    type: Boolean,
    description:
      'when the payments reach the original total but fees or interest remain: true (default) waives the rest, recorded in a rest_waived event; false pursues it',
  })
  @OptionalBoolean()
  readonly waive_remainder?: boolean;
  @ApiPropertyOptional({
    type: Boolean,
    description:
      'BGB § 288 default interest on the open principal from the day after reminder 1: base rate + 5 points (consumer customers), + 9 points (business); default false',
  })
  @OptionalBoolean()
  readonly default_interest?: boolean;
  @ApiPropertyOptional({
    type: Boolean,
    description:
      'the 40 EUR flat fee of § 288 (5) BGB for business customers, once per invoice with the first reminder after default; reminder fees are credited against it; default false',
  })
  @OptionalBoolean()
  readonly business_flat_fee?: boolean;
  @ApiPropertyOptional({
    type: Boolean,
    description:
      'before a reminder for an ERP-pulled invoice is created or shipped the ERP is asked whether it cleared the item; when the ERP cannot be reached, false (default) holds the reminder back with a warning in the run, true sends it anyway',
  })
  @OptionalBoolean()
  readonly send_when_erp_unreachable?: boolean;

  @ApiPropertyOptional({ example: '06:00', description: 'local time of the daily run, HH:MM' })
  @IsOptional()
  @Matches(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'run_at must be a time HH:MM' })
  readonly run_at?: string;
}
