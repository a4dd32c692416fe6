// RFC 9457 problem documents: the one shape every error response of the service has.
import type { Response } from 'express';
import { STATUS_CODES } from 'node:http';
import type { ErrorCode, FieldError } from './errors.js';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  errors: FieldError[];
  request_id?: string;
  [extension: string]: unknown;
}

export function problem(
  code: ErrorCode,
  status: number,
  detail: string,
  errors: FieldError[] = [],
  extensions: Record<string, unknown> = {},
): Problem {
  // Extension members never replace the standard ones.
  return {
    ...extensions,
    type: `urn:receivables:problem:${code}`,
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    code,
    errors,
  };
}

export function sendProblem(res: Response, body: Problem, requestId?: string): void {
  if (requestId) body.request_id = requestId;
  res.status(body.status).type('application/problem+json').send(JSON.stringify(body));
}
