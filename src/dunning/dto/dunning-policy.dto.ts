import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsOptional, Matches, ValidateNested } from 'class-validator';
import { OptionalAmount, OptionalBoolean, OptionalEnum, OptionalInteger, OptionalText } from '../../common/fields.js';
import { DEFAULT_STARTS, type DefaultStarts } from '../../companies/dunning-policy.js';
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
      'when the payments reach the original total and an amount is still open: true (default) waives it, recorded in a rest_waived event; false pursues it. Payments settle costs, then interest, then principal (§ 367 BGB), so what is waived is a remainder of the principal as large as the fees, flat fee and interest still unpaid',
  })
  @OptionalBoolean()
  readonly waive_remainder?: boolean;
  @ApiPropertyOptional({
    type: Boolean,
    description:
      'BGB § 288 default interest on the open principal from the first day of default (see default_starts), day by day at each day’s base rate: + 5 points (consumer customers), + 9 points (business); default false',
  })
  @OptionalBoolean()
  readonly default_interest?: boolean;
  @OptionalEnum(
    DEFAULT_STARTS,
    'when default starts (BGB § 286): reminder_deadline (default) the day after the deadline of reminder 1; thirty_days_business for business customers the earlier of that and 31 days after the due date (§ 286 (3)); consumers always by the reminder',
  )
  readonly default_starts?: DefaultStarts | null;
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

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 90,
    description:
      'days after the business date of the run that proposed a reminder during which it may be approved (default 3); older proposals must be proposed again by a new run',
  })
  @OptionalInteger(0, 90)
  readonly proposal_valid_days?: number;

  @ApiPropertyOptional({ example: '06:00', description: 'local time of the daily run, HH:MM' })
  @IsOptional()
  @Matches(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'run_at must be a time HH:MM' })
  readonly run_at?: string;
}
