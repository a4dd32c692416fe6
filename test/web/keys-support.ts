// Shared by the key pages' suites: a signed-in owner with the company's REST API, a member of the same
// company, and reading a fresh secret or the CSRF token off a page.
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { api as restApi } from '../support/factories.js';
import { addUser } from './roles-support.js';
import { registerUser, signIn, type WebUser } from './web-support.js';

export async function agentOf(app: INestApplication, user: WebUser) {
  const agent = request.agent(app.getHttpServer());
  expect((await signIn(agent, user.email)).status).toBe(303);
  return agent;
}

/** An owner signed in (with the company's REST API) and a member of the same company, signed in too. */
export async function ownerAndMember(app: INestApplication) {
  const owner = await registerUser(app);
  const member = await addUser(app, owner, 'member');
  return { owner, agent: await agentOf(app, owner), rest: restApi(app, owner.company), memberAgent: await agentOf(app, member) };
}

/** The value of the read-only input that holds a fresh secret. */
export function secretOf(html: string, id: string): string {
  const match = new RegExp(`id="${id}"[^>]*value="([^"]+)"`).exec(html) ?? new RegExp(`value="([^"]+)"[^>]*id="${id}"`).exec(html);
  if (!match) throw new Error(`no secret #${id} in the page`);
  return match[1];
}
