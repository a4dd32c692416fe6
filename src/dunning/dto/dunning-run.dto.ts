import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString } from 'class-validator';
import { OptionalDate } from '../../common/fields.js';

export class StartRunDto {
  @OptionalDate('development and test only: the business date to run for (default today)') readonly date?: string | null;
}

export class ApprovalDto {
  @ApiPropertyOptional({ type: [String], description: 'invoice ids (inv-…); all waiting invoices when left out' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10000)
  @IsString({ each: true })
  readonly invoice_ids?: string[];

  @OptionalDate('development and test only: the business date of the reminders (default today)') readonly date?: string | null;
}
