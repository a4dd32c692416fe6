// Field decorators for request DTOs: parsing from form text, validation and the OpenAPI description in one.
// Required fields refuse null; optional text fields take null or "" to clear the value.
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, IsInt, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { BooleanField, IntegerField, TextField } from './transforms.js';

const required = () => IsDefined({ message: '$property is required' });
/** Absent means "leave as is"; a present null is validated (and refused by the type check). */
const unlessAbsent = () => ValidateIf((_object, value) => value !== undefined);

export const RequiredText = (maxLength: number, example?: string) =>
  applyDecorators(ApiProperty({ type: String, maxLength, example }), TextField(), required(), IsString(), MaxLength(maxLength));

export const OptionalText = (maxLength: number, example?: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: String, maxLength, example, nullable: true }),
    TextField(),
    IsOptional(),
    IsString(),
    MaxLength(maxLength),
  );

export const OptionalBoolean = () =>
  applyDecorators(ApiPropertyOptional({ type: Boolean }), BooleanField(), unlessAbsent(), IsBoolean());

export const RequiredChoice = <T extends number>(values: readonly T[], description: string) =>
  applyDecorators(
    ApiProperty({ type: Number, enum: values, description }),
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
