// Helpers of the web app's suites: a company with a known user, and the sign-in form driven over HTTP.
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { TestCompany } from '../support/test-app.js';

export const PASSWORD = 'Sicher!Passwort1';
let seq = 0;

export interface WebUser {
  company: TestCompany;
  email: string;
}

/** Registers a company through the API; its user signs in with `email` and PASSWORD. */
export async function registerUser(app: INestApplication, name = `Web Firma ${++seq}`): Promise<WebUser> {
  const email = `buchhaltung${++seq}-${process.pid}@example.com`;
  const res = await request(app.getHttpServer())
    .post('/api/v1/registrations')
    .type('form')
    .send({ company_name: name, email, password: PASSWORD })
    .expect(201);
  const token = res.body.api_token as string;
  return {
    email,
    company: { id: res.body.company.id, name, token, apiKey: res.body.api_key, auth: `Token token=${token}` },
  };
}

/** The CSRF token of the first form of a page. */
export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no CSRF token in the page: ${html.slice(0, 300)}`);
  return match[1];
}

/** Signs the agent in through the form; answers the POST's response. */
export async function signIn(agent: ReturnType<typeof request.agent>, email: string, password = PASSWORD, next?: string) {
  const page = await agent.get(`/sign-in${next ? `?next=${encodeURIComponent(next)}` : ''}`).expect(200);
  return agent
    .post('/sign-in')
    .type('form')
    .send({ _csrf: csrfOf(page.text), email, password, ...(next ? { next } : {}) });
}
