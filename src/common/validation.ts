// One global ValidationPipe: whitelisted, transformed input; failures become 422 naming each field as sent.
import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { type FieldError, validationFailed } from './errors.js';
import { bracketName } from './input-rules.js';

// class-validator reports every failed decorator of a field: a missing one is "required", "must be a
// string" and "must be shorter than …" at once. A client gets one message per field, the first thing to
// fix: presence, then type, then what is wrong with the text as such (NUL characters, length), then its
// format (an e-mail address, one of a list …).
const FIRST = [
  'isDefined',
  'isNotEmpty',
  'isString',
  'isInt',
  'isNumber',
  'isBoolean',
  'isObject',
  'isArray',
  'isStorableText',
  'maxLength',
  'minLength',
];

function firstMessage(constraints: Record<string, string>): string | undefined {
  const key = FIRST.find((name) => name in constraints) ?? Object.keys(constraints)[0];
  return key === undefined ? undefined : constraints[key];
}

export function flattenValidationErrors(errors: ValidationError[], path: string[] = []): FieldError[] {
  return errors.flatMap((error) => {
    const here = [...path, error.property];
    const message = firstMessage(error.constraints ?? {});
    const own =
      message === undefined
        ? []
        : [{ field: bracketName(here), message: message.replace(new RegExp(`^${error.property}\\b`), bracketName(here)) }];
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
