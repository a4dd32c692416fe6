import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString } from 'class-validator';
import { OptionalBoolean, OptionalDate, OptionalInteger, OptionalText } from '../../common/fields.js';

/** A form's single `ids=inv-…` arrives as a string: the same as a list of one. */
const listOf = () => Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value));

const ids = (what: string) =>
  ApiPropertyOptional({
    type: [String],
    maxItems: 1000,
    example: ['inv-0b7e1c9a4f2d4e5f8a6b3c2d1e0f9a8b'],
    description: `the invoices (inv-…) whose waiting reminder to ${what}; at least one`,
  });

/** POST /api/v1/dunning/approvals: the named reminders, or (explicitly) all that wait, counted. */
export class ApproveDto {
  @ids('approve')
  @listOf()
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  readonly ids?: string[];

  @OptionalBoolean() readonly all?: boolean;

  @ApiPropertyOptional({
    type: 'integer',
    description: 'with all: true, how many reminders the caller saw waiting; another number now is a 409',
  })
  @OptionalInteger(0, 1_000_000)
  readonly expected_count?: number;

  @OptionalDate('development and test only: today’s business date, for the age of the proposals and the guards (default today)')
  readonly date?: string | null;
}

/** POST /api/v1/dunning/approvals/reject: the named reminders are not sent; their invoices step back. */
export class RejectDto {
  @ids('reject')
  @listOf()
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  readonly ids?: string[];

  @OptionalText(500, 'Kunde hat Ratenzahlung zugesagt') readonly reason?: string | null;
}
