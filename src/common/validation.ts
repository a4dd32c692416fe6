// One global ValidationPipe: whitelisted, transformed input; failures become 422 naming each field as sent.
import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { type FieldError, validationFailed } from './errors.js';
import { bracketName } from './input-rules.js';

export function flattenValidationErrors(errors: ValidationError[], path: string[] = []): FieldError[] {
  return errors.flatMap((error) => {
    const here = [...path, error.property];
    const own = Object.values(error.constraints ?? {}).map((message) => ({
      field: bracketName(here),
      message: message.replace(new RegExp(`^${error.property}\\b`), bracketName(here)),
    }));
    return [...own, ...flattenValidationErrors(error.children ?? [], here)];
  });
}

export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: false,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => validationFailed(flattenValidationErrors(errors)),
  });
}
