// One rule for all text that enters the service, applied where it enters (request path, query string,
// JSON and form bodies, multipart fields), before validation or the database see it:
// - no control characters: PostgreSQL refuses NUL in text (a 500 before this rule), and the others
//   (C0 other than tab, line feed and carriage return; DEL; C1) only ever arrive by mistake or attack.
//   Query and path parameters take none at all: no parameter spans lines.
// - no bidirectional controls (U+202A–U+202E, U+2066–U+2069) in identifiers (`*_id`, `*_number`): they make
//   two different ids look the same on screen and in letters ("Trojan Source", CVE-2021-42574).
// - no nesting deeper than MAX_DEPTH: class-validator and class-transformer walk bodies recursively, and a
//   body nested 3,000 levels deep overflowed the stack (a 500 before this rule).
import { AppError, type FieldError } from './errors.js';

export const MAX_DEPTH = 32;

// eslint-disable-next-line no-control-regex -- control characters are what this rule refuses
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- likewise
const CONTROL_IN_PARAMETER = /[\u0000-\u001f\u007f-\u009f]/;
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;
const IDENTIFIER = /(^|_)(id|number)$/;

export type InputKind = 'body' | 'query';

export type InputProblem = { kind: 'field'; error: FieldError } | { kind: 'too_deep' };

/** customer.external_id → customer[external_id], the bracket names form clients send. */
export function bracketName(path: readonly string[]): string {
  return path.map((part, i) => (i === 0 ? part : `[${part}]`)).join('');
}

/** The first problem of a parsed body or query object, or null. */
export function inputProblem(value: unknown, kind: InputKind): InputProblem | null {
  return walk(value, [], kind, 0);
}

/** The problem of a single text value sent under `name`, or null. */
export function textProblem(text: string, name: string, kind: InputKind | 'path'): FieldError | null {
  const field = name;
  if ((kind === 'body' ? CONTROL_IN_TEXT : CONTROL_IN_PARAMETER).test(text)) {
    return { field, message: `${field} must not contain control characters` };
  }
  const last =
    name
      .replace(/\]$/, '')
      .split(/[[\].]+/)
      .pop() ?? name;
  if (IDENTIFIER.test(last) && BIDI_CONTROL.test(text)) {
    return { field, message: `${field} must not contain bidirectional control characters` };
  }
  return null;
}

function walk(value: unknown, path: string[], kind: InputKind, depth: number): InputProblem | null {
  if (typeof value === 'string') {
    const error = textProblem(value, bracketName(path), kind);
    return error ? { kind: 'field', error } : null;
  }
  if (typeof value !== 'object' || value === null) return null;
  if (depth >= MAX_DEPTH) return { kind: 'too_deep' };
  const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((item, i) => [String(i), item]) : Object.entries(value);
  for (const [key, item] of entries) {
    const here = [...path, key];
    if (CONTROL_IN_PARAMETER.test(key)) {
      const parent = bracketName(path);
      return { kind: 'field', error: { field: parent || 'body', message: `${parent || 'The body'} has a key with control characters` } };
    }
    const problem = walk(item, here, kind, depth + 1);
    if (problem) return problem;
  }
  return null;
}

/** The error a problem is answered with: 422 in a body, 400 in a query string; 400 when too deep. */
export function inputError(problem: InputProblem, kind: InputKind): AppError {
  if (problem.kind === 'too_deep')
    return new AppError('request.malformed', `The ${kind === 'body' ? 'body' : 'query string'} is nested deeper than ${MAX_DEPTH} levels`);
  if (kind === 'query') return new AppError('request.invalid_query', problem.error.message, [problem.error]);
  return new AppError('validation.failed', problem.error.message, [problem.error]);
}

/** A decoded path segment with a control character: 400 naming the path. */
export function pathError(path: string): AppError | null {
  for (const segment of path.split('/')) {
    if (!segment.includes('%')) continue;
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      continue; // the router answers a malformed escape itself
    }
    const error = textProblem(decoded, 'path', 'path');
    if (error)
      return new AppError('request.malformed', 'The request path contains control characters', [
        { field: 'path', message: error.message.replace(/^path/, 'The path') },
      ]);
  }
  return null;
}
