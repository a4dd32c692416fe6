import { createRootLogger } from './logger.js';
import { censorNestedSecrets } from './secret-censor.js';

function capture() {
  const lines: string[] = [];
  const logger = createRootLogger('info', { write: (line: string) => void lines.push(line) });
  return { logger, text: () => lines.join(''), last: () => JSON.parse(lines[lines.length - 1]) as Record<string, unknown> };
}

describe('secrets in log lines', () => {
  it('censors secret fields one level down and leaves the logged object as it was', () => {
    const { logger, last } = capture();
    const dto = { email: 'a@example.com', password: 'Geheim!1', client_secret: 'cs-1' };
    logger.info({ dto, count: 2 }, 'registering');
    expect(last()).toMatchObject({ dto: { email: 'a@example.com', password: '[redacted]', client_secret: '[redacted]' }, count: 2 });
    expect(dto.password).toBe('Geheim!1');
  });

  it('censors them at the top level, in nested headers, in child bindings and on errors', () => {
    const { logger, text, last } = capture();
    logger.info(
      { token: 't-secret-1', options: { headers: { authorization: 'Bearer b-secret-2', cookie: 'c-secret-3', accept: 'json' } } },
      'call',
    );
    expect(last()).toMatchObject({
      token: '[redacted]',
      options: { headers: { authorization: '[redacted]', cookie: '[redacted]', accept: 'json' } },
    });
    logger.child({ api_key: 'k-secret-4' }).warn({ connection: { name: 'SAP' } }, 'child line');
    expect(last()).toMatchObject({ api_key: '[redacted]', connection: { name: 'SAP' } });
    const error = Object.assign(new Error('unparsable'), { body: '{"password":"p-secret-5"', access_token: 'a-secret-6' });
    logger.error({ err: error }, 'failed');
    expect(last()).toMatchObject({ err: { message: 'unparsable', body: '[redacted]', access_token: '[redacted]' } });
    for (const secret of ['t-secret-1', 'b-secret-2', 'c-secret-3', 'k-secret-4', 'p-secret-5', 'a-secret-6'])
      expect(text()).not.toContain(secret);
  });

  it('hands back the very object when nothing in it is secret (no copy per line)', () => {
    const line = { run: 'pul-1', counts: { created: 3 }, list: [{ password: 'x' }], when: new Date(0) };
    expect(censorNestedSecrets(line)).toBe(line);
  });
});

describe('requests and responses in log lines', () => {
  it('show only id, method, url and status, never their headers, on any line', () => {
    const { logger, text, last } = capture();
    const req = {
      id: 'r-1',
      method: 'GET',
      url: '/api/v1/customers',
      headers: { authorization: 'Token token=t-secret-7', cookie: 'c-secret-8' },
    };
    logger.warn({ req, res: { statusCode: 401, headers: { 'set-cookie': 's-secret-9' } } }, 'refused');
    expect(last()).toMatchObject({ req: { id: 'r-1', method: 'GET', url: '/api/v1/customers' }, res: { statusCode: 401 } });
    for (const secret of ['t-secret-7', 'c-secret-8', 's-secret-9']) expect(text()).not.toContain(secret);
  });
});
