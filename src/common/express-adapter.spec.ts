// AppExpressAdapter: requests and responses reach Express already on the app's prototypes, so that
// Express's per-request Object.setPrototypeOf changes nothing (test/platform/request-objects.e2e-spec.ts shows
// the V8 maps this keeps shared, in a plain Node process).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, type INestApplication, Module, Req } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Express, Request } from 'express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import request from 'supertest';
import { AppExpressAdapter } from './express-adapter.js';

@Controller('echo')
class EchoController {
  @Get()
  echo(@Req() req: Request) {
    return { host: req.hostname, path: req.path, accepts: req.accepts('json') };
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

describe('AppExpressAdapter', () => {
  let app: INestApplication;
  /** The prototypes of each request and response as the server hands them to Express. */
  const born: Array<{ req: object; res: object }> = [];

  beforeAll(async () => {
    app = await NestFactory.create(EchoModule, new AppExpressAdapter(), { logger: false, bodyParser: false });
    const server = app.getHttpServer() as Server;
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) =>
      born.push({ req: Object.getPrototypeOf(req), res: Object.getPrototypeOf(res) }),
    );
    await app.init();
  });
  afterAll(async () => app.close());

  it('creates requests and responses on the Express app prototypes, before Express sees them', async () => {
    const express = app.getHttpAdapter().getInstance() as Express;
    await request(app.getHttpServer()).get('/echo').expect(200);
    await request(app.getHttpServer()).get('/echo').expect(200);
    expect(born).toHaveLength(2);
    for (const { req, res } of born) {
      expect(req).toBe(express.request);
      expect(res).toBe(express.response);
    }
  });

  it("keeps Express's request and response methods", async () => {
    const res = await request(app.getHttpServer())
      .get('/echo?x=1')
      .set('Host', 'example.test')
      .set('Accept', 'application/json')
      .expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ host: 'example.test', path: '/echo', accepts: 'json' });
  });
});
