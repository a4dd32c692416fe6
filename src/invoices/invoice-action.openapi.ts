// The decorators every action on one invoice (a status transition: archive, mark_duplicate, write_off,
// hand_to_collection) has in common: 200 with the invoice, idempotent, an optional reason.
import { applyDecorators, HttpCode } from '@nestjs/common';
import { Idempotent } from '../idempotency/idempotency.interceptor.js';
import { ApiDoc, ApiFormBody, ApiOk, ApiProblems } from '../openapi/responses.js';
import { InvoiceActionDto } from './dto/action.dto.js';
import { InvoiceResponseSchema } from './invoice.serializer.js';

export const InvoiceAction = (summary: string, description: string) =>
  applyDecorators(
    ApiDoc(summary, description),
    HttpCode(200),
    Idempotent(),
    ApiFormBody({ optional: InvoiceActionDto, idempotent: true }),
    ApiOk(InvoiceResponseSchema),
    ApiProblems(400, 404, 409, 413, 415, 422),
  );
