import { ConfigError } from './config-error.js';
import { loadMailConfig } from './mail.config.js';

const load = (env: Record<string, string>) => loadMailConfig({ SMTP_URL: 'smtp://mx.example.com:587', ...env }, '/tmp/data', true);

describe('mail configuration: SMTP_HELO_NAME', () => {
  it('is unset by default (nodemailer then gives the machine host name)', () => {
    expect(load({}).heloName).toBeUndefined();
  });

  it.each(['mailer.example.com', 'r1.cluster.test', 'localhost', 'xn--mller-kva.de'])('takes the domain name %s', (name) => {
    expect(load({ SMTP_HELO_NAME: name }).heloName).toBe(name);
  });

  it.each([
    'mailer example.com',
    '-mailer.example.com',
    'mailer..example.com',
    'mailer.example.com.',
    'müller.de',
    `${'a'.repeat(64)}.de`,
    'x\r\nRSET',
  ])('refuses %j, naming the setting', (name) => {
    expect(() => load({ SMTP_HELO_NAME: name })).toThrow(ConfigError);
    expect(() => load({ SMTP_HELO_NAME: name })).toThrow(/SMTP_HELO_NAME must be a domain name/);
  });
});
