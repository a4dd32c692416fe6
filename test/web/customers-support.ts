// Helpers of the customer pages' suites: the list's rows as the page shows them, and a signed-in agent.
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { signIn, type WebUser } from './web-support.js';

export interface ListedRow {
  id: string;
  name: string;
  invoices: string;
  open: string;
  overdue: string;
}

/** The rows of the customer list as the page shows them. */
export function listed(html: string): ListedRow[] {
  const cell = (body: string, figure: string) => new RegExp(`data-figure="${figure}"[^>]*>([^<]*)<`).exec(body)?.[1] ?? '';
  return [...html.matchAll(/<tr data-customer="([^"]+)">([\s\S]*?)<\/tr>/g)].map(([, id, body]) => ({
    id,
    name: /<a [^>]*>([^<]*)<\/a>/.exec(body)?.[1] ?? '',
    invoices: cell(body, 'invoices'),
    open: cell(body, 'open'),
    overdue: cell(body, 'overdue'),
  }));
}

export const euro = (amount: string) => `${amount}\u00a0€`;

/** A supertest agent signed in as `user`. */
export async function agentOf(app: INestApplication, user: WebUser) {
  const agent = request.agent(app.getHttpServer());
  await signIn(agent, user.email);
  return agent;
}
