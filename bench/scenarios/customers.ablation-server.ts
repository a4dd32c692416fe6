// Child process entry for `npm run bench -- customers-ablation`: the service built by createApp with
// one part at a time switched off, to see what each part costs per request. The switches patch class
// prototypes and the Express stack from outside; src/ is untouched. Not a supported configuration:
// a measuring instrument only.
import 'reflect-metadata';
import type { ExecutionContext } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { NextFunction, Request, Response } from 'express';
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { createApp } from '../../src/app.setup.js';
import { AUTH_SCHEMES } from '../../src/auth/auth.decorators.js';
import { CredentialGuard } from '../../src/auth/credential.guard.js';
import { CredentialsRepository } from '../../src/auth/credentials.repository.js';
import { hashSecret } from '../../src/auth/secrets.js';
import { requestIdFor } from '../../src/logging/http-logger.js';
import { createRootLogger } from '../../src/logging/logger.js';
import { TokenStrategy } from '../../src/auth/token.strategy.js';
import type { PageRequest } from '../../src/common/pagination.js';
import { RateLimitGuard } from '../../src/http/rate-limit.guard.js';
import { loadConfig } from '../../src/config/app.config.js';
import type { Contact } from '../../src/contacts/contact.entity.js';
import { CustomersRepository } from '../../src/customers/customers.repository.js';
import { serveForParent } from '../support/child-server.js';
import type { AblationServerOptions } from './customers-ablation.js';
import {
  contactsSql,
  countNeeded,
  countOf,
  type CustomerStatements,
  pageSql,
  type Row,
  toContact,
  toCustomer,
  type TokenRow,
} from './customers.statements.js';

type Layer = { handle: (req: Request, res: Response, next: NextFunction) => void };

serveForParent<AblationServerOptions>(async ({ databaseUrl, env, off, statements }) => {
  // The request logger's binding (src/logging/request-logger.ts) is the only user of AsyncLocalStorage in the
  // service: without run() no store is ever entered, so Node never installs its promise hooks.
  if (off.includes('requestContext'))
    AsyncLocalStorage.prototype.run = (_store: unknown, fn: (...args: unknown[]) => unknown, ...args: unknown[]) => fn(...args);
  if (off.includes('rateLimit')) RateLimitGuard.prototype.canActivate = () => Promise.resolve(true);
  const config = loadConfig({
    APP_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    ...env,
    DATABASE_URL: databaseUrl,
  });
  const root = createRootLogger(config.logLevel);
  const app = (await createApp(config, databaseUrl, root)) as NestExpressApplication;
  if (off.includes('passport')) skipPassport(app.get(TokenStrategy, { strict: false }));
  if (off.includes('typeorm'))
    skipTypeOrm((app.get<DataSource>(getDataSourceToken()).driver as unknown as { master: pg.Pool }).master, statements);
  if (off.includes('accessLog')) replaceHttpLogger(app, root);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  if (typeof address !== 'object' || !address) throw new Error('not listening');
  return { port: address.port, close: () => app.close() };
});

/** The first middleware of createApp, the HTTP logger; replaced by one that keeps the id and the request logger only. */
function replaceHttpLogger(app: NestExpressApplication, root: Logger): void {
  const stack = (app.getHttpAdapter().getInstance() as { router: { stack: Layer[] } }).router.stack;
  const layer = stack.find((l) => l.handle.name === 'httpLogger');
  if (!layer) throw new Error('the HTTP logger is not in the Express stack');
  layer.handle = (req, res, next) => {
    req.id = requestIdFor(req, res);
    req.log = root.child({ request_id: req.id });
    next();
  };
}

/** The global guard without passport: the token strategy's validate called directly. */
function skipPassport(strategy: TokenStrategy): void {
  CredentialGuard.prototype.canActivate = async function (this: CredentialGuard, context: ExecutionContext) {
    const reflector = (this as unknown as { reflector: { getAllAndOverride<T>(key: string, targets: unknown[]): T } }).reflector;
    const schemes = reflector.getAllAndOverride<string[] | undefined>(AUTH_SCHEMES, [context.getHandler(), context.getClass()]) ?? [
      'token',
    ];
    if (schemes.length === 0) return true;
    const req = context.switchToHttp().getRequest<Request>();
    req.user = (await strategy.validate(req)) ?? undefined;
    return true;
  };
}

/** The repositories' reads as plain pg queries on TypeORM's own pool: same SQL, no query builder, no hydration. */
function skipTypeOrm(pool: pg.Pool, sql: CustomerStatements): void {
  CredentialsRepository.prototype.findActiveToken = async (token: string) => {
    const row = (await pool.query<TokenRow>(sql.token, [hashSecret(token)])).rows[0];
    return row && { credentialId: row.id, company: { id: row.company_id, name: row.name, timeZone: row.time_zone } };
  };
  CustomersRepository.prototype.findById = async (companyId: string, id: string) => {
    const row = (await pool.query<Row>(sql.customer, [companyId, id])).rows[0];
    return row ? toCustomer(sql, row) : null;
  };
  CustomersRepository.prototype.list = async (companyId: string, page: PageRequest) => {
    const client = await pool.connect();
    try {
      const rows = (await client.query<Row>(pageSql(sql, page.perPage, page.offset), [companyId])).rows;
      const total = countNeeded(rows.length, page.perPage, page.offset)
        ? countOf((await client.query<Row>(sql.count, [companyId])).rows[0])
        : page.offset + rows.length;
      const customers = rows.map((row) => toCustomer(sql, row));
      const contacts = await CustomersRepository.prototype.contactsOf(
        companyId,
        customers.map((c) => c.id),
      );
      return { items: customers.map((customer) => ({ customer, contacts: contacts.get(customer.id) ?? [] })), total };
    } finally {
      client.release();
    }
  };
  CustomersRepository.prototype.contactsOf = async (companyId: string, customerIds: string[]) => {
    const byCustomer = new Map<string, Contact[]>(customerIds.map((id) => [id, []]));
    if (customerIds.length === 0) return byCustomer;
    for (const row of (await pool.query<Row>(contactsSql(sql, customerIds.length), [companyId, ...customerIds])).rows) {
      const contact = toContact(sql, row);
      byCustomer.get(contact.customerId)?.push(contact);
    }
    return byCustomer;
  };
}
