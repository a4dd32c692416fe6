import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { createRootLogger } from './logger.js';
import { bindRequestLogger, RequestAwareLogger } from './request-logger.js';

function capture() {
  const lines: string[] = [];
  const root = createRootLogger('trace', { write: (line: string) => void lines.push(line) });
  return { root, last: () => JSON.parse(lines[lines.length - 1]) as Record<string, unknown> };
}

describe("Nest's Logger on pino", () => {
  afterEach(() => Logger.overrideLogger(false));

  it('writes the lines nestjs-pino wrote: context last, objects merged, an error as err', () => {
    const { root, last } = capture();
    Logger.overrideLogger(new RequestAwareLogger(root));
    const logger = new Logger('Jobs');
    logger.log('started');
    expect(last()).toMatchObject({ level: 30, context: 'Jobs', msg: 'started' });
    logger.warn({ job: 'j-1' }, 'slow');
    expect(last()).toMatchObject({ level: 40, context: 'Jobs', job: 'j-1', msg: 'slow' });
    logger.error(new Error('broken'));
    expect(last()).toMatchObject({ level: 50, context: 'Jobs', err: { message: 'broken' } });
    logger.verbose('details');
    expect(last()).toMatchObject({ level: 10, msg: 'details' });
  });

  it("takes an exception handler's (message, stack) as one error with that stack", () => {
    const { root, last } = capture();
    new RequestAwareLogger(root).error('boom', 'Error: boom\n    at handler (file.js:1:1)', 'ExceptionsHandler');
    expect(last()).toMatchObject({
      level: 50,
      context: 'ExceptionsHandler',
      err: { message: 'boom', stack: 'Error: boom\n    at handler (file.js:1:1)' },
    });
  });

  it("writes to the request's logger while the request is handled, after awaits too, and to the root elsewhere", async () => {
    const { root, last } = capture();
    const logger = new RequestAwareLogger(root);
    const req = { log: root.child({ request_id: 'r-1' }) } as unknown as Request;
    await new Promise<void>((done) =>
      bindRequestLogger(
        req,
        {} as Response,
        (async () => {
          await new Promise((resolve) => setImmediate(resolve));
          logger.log('inside', 'Service');
          done();
        }) as NextFunction,
      ),
    );
    expect(last()).toMatchObject({ request_id: 'r-1', context: 'Service', msg: 'inside' });
    logger.log('outside', 'Service');
    expect(last()).not.toHaveProperty('request_id');
  });
});
