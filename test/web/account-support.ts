// Helpers of the account suites (test/web/account*.e2e-spec.ts): the app's mail through the test SMTP
// server, the links in the e-mails it received, and the forms of the account pages driven over HTTP.
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { AppConfig } from '../../src/config/app.config.js';
import { shippingTestConfig, waitFor } from '../support/shipping.js';
import type { ReceivedMail, TestSmtp } from '../support/smtp.js';
import { PUBLIC_URL } from '../support/test-app.js';
import { csrfOf } from './web-support.js';

export type Agent = ReturnType<typeof request.agent>;

/** Mail through the test SMTP server; X-Forwarded-For from the test client names the client address. */
export function accountTestConfig(smtp: TestSmtp): Partial<AppConfig> {
  const { mail } = shippingTestConfig(smtp.url);
  return { mail, trustedProxies: ['loopback'] };
}

export function mailTo(smtp: TestSmtp, address: string, count = 1): Promise<ReceivedMail> {
  return waitFor(
    () => Promise.resolve(smtp.received.filter((m) => m.to.includes(address.toLowerCase()))[count - 1]),
    `mail ${count} to ${address}`,
  );
}

/** The path of the account link in an e-mail (under the public URL). */
export function linkIn(mail: ReceivedMail, kind: 'password-reset' | 'invitations'): string {
  const match = new RegExp(`${PUBLIC_URL}(/${kind}/[A-Za-z0-9_-]{43})\\b`).exec(mail.parsed.text ?? '');
  if (!match) throw new Error(`no ${kind} link in: ${mail.parsed.text}`);
  return match[1];
}

/** Posts a form of the page at `path` (its CSRF token read from the page first). */
export async function postForm(agent: Agent, path: string, form: Record<string, string>, action = path, address?: string) {
  const page = await agent.get(path);
  const post = agent.post(action).type('form');
  if (address) post.set('X-Forwarded-For', address);
  return post.send({ _csrf: csrfOf(page.text), ...form });
}

export function requestReset(agent: Agent, email: string, address = '198.51.100.1') {
  return postForm(agent, '/password-reset', { email }, '/password-reset', address);
}

export function setPassword(agent: Agent, link: string, password: string, repeat = password) {
  return postForm(agent, link, { password, password_repeat: repeat });
}

export const agentOf = (app: INestApplication): Agent => request.agent(app.getHttpServer());
