// Composed OpenAPI decorators for the controllers: success answers, problem answers, request content
// types, pagination and filters, and the Idempotency-Key header; a few lines per handler.
import { applyDecorators, type Type } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiHeader, ApiOperation, ApiQuery, ApiResponse, type HeadersObject } from '@nestjs/swagger';
import { ProblemSchema } from './problem.schema.js';
import { type ObjectSchema, schemaRef } from './schema.js';

export type ProblemStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 503;

const PROBLEMS: Record<ProblemStatus, string> = {
  400: 'Malformed body, query parameter or Idempotency-Key',
  401: 'Missing or invalid credential; `WWW-Authenticate` names the scheme',
  403: 'The credential may not do this (in production: a credential sent over plain HTTP)',
  404: 'No such record, or a record of another company',
  409: 'Conflict: a taken external_id (`existing_id` names the holder), a status that does not allow this, or a request with the same Idempotency-Key still running',
  413: 'Body or file too large',
  415: 'Content-Type not accepted, or a file that is not a PDF',
  422: 'Validation failed: `errors` names each offending field; also an Idempotency-Key reused with another body',
  429: 'Rate limited; `Retry-After` says when to retry',
  500: 'A bug: logged with the request id',
  503: 'A dependency (the database) is not available; retry later',
};

const header = (name: string): HeadersObject => ({ [name]: { $ref: `#/components/headers/${name}` } });
const PROBLEM_HEADERS: Partial<Record<ProblemStatus, HeadersObject>> = { 401: header('WWW-Authenticate'), 429: header('Retry-After') };

/** An RFC 9457 problem document (`application/problem+json`) answered with this status. */
export const ApiProblem = (status: ProblemStatus, description = PROBLEMS[status]) =>
  ApiResponse({
    status,
    description,
    headers: PROBLEM_HEADERS[status],
    content: { 'application/problem+json': { schema: schemaRef(ProblemSchema) } },
  });

/** The problem statuses a handler (or, on a controller, every handler) can answer. */
export const ApiProblems = (...statuses: ProblemStatus[]) => applyDecorators(...statuses.map((status) => ApiProblem(status)));

/** A JSON answer: a component of src/openapi/document.ts's list (the serializers' schemas). */
export const ApiOk = (schema: ObjectSchema, description = 'OK') => ApiResponse({ status: 200, description, schema: schemaRef(schema) });

export const ApiCreated = (schema: ObjectSchema, description = 'Created') =>
  ApiResponse({ status: 201, description, schema: schemaRef(schema) });

export const ApiNoContent = (description = 'Done; no body') => ApiResponse({ status: 204, description });

/** A stored PDF, streamed as it was uploaded. */
export const ApiPdf = (description: string) =>
  ApiResponse({
    status: 200,
    description,
    headers: header('Content-Disposition'),
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
  });

const idempotencyKey = () =>
  ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'A retry with the same key and body answers the first response again (with `Idempotent-Replayed: true`); ' +
      'the same key with another body is a 422, a retry while the first request runs a 409',
    schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
  });

/** A form or JSON body (`customer[name]` in a form is `{"customer": {"name": …}}` in JSON). */
export const ApiFormBody = (options: { idempotent?: boolean; optional?: Type<unknown> } = {}) =>
  applyDecorators(
    ApiConsumes('application/x-www-form-urlencoded', 'application/json'),
    ...(options.optional ? [ApiBody({ type: options.optional, required: false })] : []),
    ...(options.idempotent ? [idempotencyKey()] : []),
  );

/** A multipart body: text parameters and files, described together by the schema. */
export const ApiMultipartBody = (schema: Type<unknown>, options: { idempotent?: boolean } = {}) =>
  applyDecorators(ApiConsumes('multipart/form-data'), ApiBody({ type: schema }), ...(options.idempotent ? [idempotencyKey()] : []));

export const ApiPaged = () =>
  applyDecorators(
    ApiQuery({
      name: 'page',
      required: false,
      description: '1-based; not a positive integer: 400',
      schema: { type: 'integer', minimum: 1, default: 1 },
    }),
    ApiQuery({
      name: 'per_page',
      required: false,
      description: 'Items per page',
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 30 },
    }),
  );

/** What the operation does: a short summary (the client's method name reads like it) and a sentence or two more. */
export const ApiDoc = (summary: string, description: string) => ApiOperation({ summary, description });
