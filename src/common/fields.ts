// Field decorators for request DTOs: parsing from form text, validation and the OpenAPI description in one.
// Required fields refuse null; optional text fields take null or "" to clear the value.
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateIf,
  type ValidationOptions,
  isEmail,
} from 'class-validator';
import { parseCalendarDate } from './calendar-date.js';
import { Decimal } from './money.js';
import { isStorableText } from './text.js';
import { BooleanField, CalendarDateField, DecimalField, IntegerField, TextField, toTrimmedText } from './transforms.js';

const required = () => IsDefined({ message: '$property is required' });
/** Absent means "leave as is"; a present null is validated (and refused by the type check). */
const unlessAbsent = () => ValidateIf((_object, value) => value !== undefined);
/** A NUL character or an unpaired surrogate is a 422, not a database error. */
const storable = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isStorableText',
      validator: {
        validate: (value) => typeof value !== 'string' || isStorableText(value),
        defaultMessage: (args) => `${args?.property} must not contain NUL characters or unpaired surrogates`,
      },
    },
    options,
  );

/**
 * An e-mail address. class-validator's IsEmail throws ("URI malformed") on an unpaired surrogate,
 * which would surface as a 500; such text is simply not an address.
 */
export const IsEmailAddress = () =>
  ValidateBy({
    name: 'isEmailAddress',
    validator: {
      validate: (value) => typeof value === 'string' && isStorableText(value) && isEmail(value),
      defaultMessage: (args) => `${args?.property} must be an e-mail address`,
    },
  });

export const RequiredText = (maxLength: number, example?: string) =>
  applyDecorators(ApiProperty({ type: String, maxLength, example }), TextField(), required(), IsString(), MaxLength(maxLength), storable());

export const OptionalText = (maxLength: number, example?: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: String, maxLength, example, nullable: true }),
    TextField(),
    IsOptional(),
    IsString(),
    MaxLength(maxLength),
    storable(),
  );

/** A list of texts that replaces the stored one; a single form value is a list of one, null or [] clears it. */
export const OptionalTextList = (maxItems: number, maxLength: number, example?: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: [String], maxItems, example: example && [example], nullable: true }),
    Transform(({ value }: { value: unknown }) => {
      const list = typeof value === 'string' ? [value] : value;
      return Array.isArray(list) ? list.map(toTrimmedText).filter((item) => item !== null) : list;
    }),
    IsOptional(),
    IsArray({ message: '$property must be a list of texts' }),
    ArrayMaxSize(maxItems, { message: `$property takes at most ${maxItems} entries` }),
    IsString({ each: true, message: 'each of $property must be a text' }),
    MaxLength(maxLength, { each: true }),
    storable({ each: true }),
  );

export const OptionalBoolean = () => applyDecorators(ApiPropertyOptional({ type: Boolean }), BooleanField(), unlessAbsent(), IsBoolean());

export const RequiredChoice = <T extends number>(values: readonly T[], description: string) =>
  applyDecorators(
    ApiProperty({ type: 'integer', enum: values, description }),
    IntegerField(),
    required(),
    IsInt(),
    IsIn(values as T[], { message: `$property must be one of ${values.join(', ')}` }),
  );

export const OptionalEnum = (values: readonly string[], description?: string) =>
  applyDecorators(
    ApiPropertyOptional({ enum: values, description, nullable: true }),
    TextField(),
    IsOptional(),
    IsIn(values as string[], { message: `$property must be one of ${values.join(', ')}` }),
  );

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export const OptionalDate = (description?: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: String, example: '21.11.2026', description: description ?? 'DD.MM.YYYY or YYYY-MM-DD', nullable: true }),
    CalendarDateField(),
    IsOptional(),
    ValidateBy({
      name: 'isCalendarDate',
      validator: {
        validate: (value) => typeof value === 'string' && ISO_DATE.test(value) && parseCalendarDate(value) === value,
        defaultMessage: (args) => `${args?.property} must be a real date as DD.MM.YYYY or YYYY-MM-DD`,
      },
    }),
  );

const MAX_AMOUNT = new Decimal('1e12');

/** A money amount with at most two decimals; `min` is inclusive unless `positive`. */
const amount = (options: { positive?: boolean; allowNegative?: boolean }) =>
  ValidateBy({
    name: 'isAmount',
    validator: {
      validate: (value) =>
        value instanceof Decimal &&
        value.decimalPlaces() <= 2 &&
        value.abs().lessThan(MAX_AMOUNT) &&
        (options.allowNegative || (options.positive ? value.greaterThan(0) : value.greaterThanOrEqualTo(0))),
      defaultMessage: (args) =>
        `${args?.property} must be a${options.positive ? ' positive' : options.allowNegative ? '' : ' non-negative'} amount with at most two decimals`,
    },
  });

export const OptionalAmount = (options: { positive?: boolean } = {}) =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      example: '119.00',
      description: 'decimal; "119.5", "119,50" and 119.5 are accepted',
      nullable: true,
    }),
    DecimalField(),
    IsOptional(),
    amount(options),
  );

export const RequiredAmount = (options: { positive?: boolean } = {}) =>
  applyDecorators(
    ApiProperty({ type: String, example: '119.00', description: 'decimal; "119.5", "119,50" and 119.5 are accepted' }),
    DecimalField(),
    required(),
    amount(options),
  );

export const OptionalInteger = (min: number, max: number) =>
  applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: min, maximum: max, nullable: true }),
    IntegerField(),
    IsOptional(),
    IsInt(),
    Min(min),
    Max(max),
  );
