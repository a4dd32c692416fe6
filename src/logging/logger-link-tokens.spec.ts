import { createRootLogger } from './logger.js';

describe('account links in log lines', () => {
  it('censor the token of a password-reset or invitation link and keep every other path', () => {
    const lines: string[] = [];
    const logger = createRootLogger('info', { write: (line: string) => void lines.push(line) });
    const token = 'A'.repeat(20) + '_-' + 'b'.repeat(21);
    const urlOf = (url: string) => {
      logger.info({ req: { id: 'r', method: 'GET', url } }, 'request');
      return (JSON.parse(lines[lines.length - 1]) as { req: { url: string } }).req.url;
    };
    expect(urlOf(`/password-reset/${token}`)).toBe('/password-reset/[redacted]');
    expect(urlOf(`/invitations/${token}?x=1`)).toBe('/invitations/[redacted]?x=1');
    expect(urlOf('/password-reset/sent')).toBe('/password-reset/sent');
    expect(urlOf('/invoices/inv-1')).toBe('/invoices/inv-1');
    expect(lines.join('')).not.toContain(token);
  });
});
