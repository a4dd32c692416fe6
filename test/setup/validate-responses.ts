// Jest's setupFilesAfterEnv: every answer a supertest request of any suite receives is checked against
// the committed openapi.json (test/support/openapi-validation.ts); a mismatch fails the request, so the
// test that made it, as an `.expect(…)` that does not hold would. Patched on supertest's Test, so the
// requests of test/support's helpers are checked as much as a suite's own.
import request from 'supertest';
import type { Response } from 'supertest';
import { responseValidator } from '../support/openapi-validation.js';

type Assert = (
  this: request.Test,
  error: Error | null,
  res: Response | undefined,
  fn?: (error: Error | null, res: Response) => void,
) => void;
type Sent = request.Test & { method: string; url: string };

const prototype = request.Test.prototype as unknown as { assert: Assert; __validated?: true };
if (!prototype.__validated) {
  const assert = prototype.assert;
  prototype.__validated = true;
  prototype.assert = function (this: request.Test, error, res, fn) {
    const sent = this as Sent;
    const drift = res ? driftOf(sent, res) : null;
    if (!drift) return assert.call(this, error, res, fn);
    return assert.call(this, error, res, (assertError, answer) => fn?.call(this, assertError ?? new Error(drift), answer));
  };
}

function driftOf(sent: Sent, res: Response): string | null {
  const text = (res as Response & { text?: string }).text;
  return responseValidator().check({
    method: sent.method,
    url: sent.url,
    status: res.status,
    contentType: res.headers['content-type'],
    body: res.body,
    hasBody: Boolean(text) || (Buffer.isBuffer(res.body) && res.body.length > 0),
  });
}
