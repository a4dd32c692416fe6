// AppExpressAdapter: requests and responses reach Express already on the app's prototypes, so that
// Express's per-request Object.setPrototypeOf changes nothing and all requests share their V8 maps.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Express, Request, Response } from 'express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { get, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { AppExpressAdapter } from './express-adapter.js';

setFlagsFromString('--allow-natives-syntax');
// V8's own check; the function is compiled after the flag above is set.
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** Holds requests until two are in the handler, so that both are compared at the same point. */
const held: Array<{ req: Request; res: Response }> = [];
const pairs: Array<{ sameRequestMap: boolean; sameResponseMap: boolean }> = [];

@Controller('pair')
class PairController {
  @Get()
  pair(): Promise<string> {
    return new Promise(() => undefined);
  }
}

@Module({ controllers: [PairController] })
class PairModule {}

describe('AppExpressAdapter', () => {
  let app: INestApplication;
  let port: number;
  /** The prototypes of each request and response as the server hands them to Express. */
  const born: Array<{ req: object; res: object }> = [];

  beforeAll(async () => {
    app = await NestFactory.create(PairModule, new AppExpressAdapter(), { logger: false, bodyParser: false });
    const express = (app.getHttpAdapter().getInstance() as Express);
    express.use((req: Request, res: Response, next: () => void) => {
      held.push({ req, res });
      if (held.length < 2) return next();
      const [a, b] = held.splice(0, 2);
      pairs.push({ sameRequestMap: haveSameMap(a.req, b.req), sameResponseMap: haveSameMap(a.res, b.res) });
      a.res.end('ok');
      b.res.end('ok');
    });
    const server = app.getHttpServer() as Server;
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => born.push({ req: Object.getPrototypeOf(req), res: Object.getPrototypeOf(res) }));
    await app.listen(0, '127.0.0.1');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => app.close());

  it('creates requests and responses on the Express app prototypes, before Express sees them', async () => {
    const express = (app.getHttpAdapter().getInstance() as Express);
    await Promise.all([fetchPair(), fetchPair()]);
    expect(born.length).toBeGreaterThanOrEqual(2);
    for (const { req, res } of born) {
      expect(req).toBe(express.request);
      expect(res).toBe(express.response);
    }
  });

  it('gives every request and response the same V8 map once Express and the middleware have added their properties', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    try {
      for (let round = 0; round < 3; round++) await Promise.all([fetchPair(agent), fetchPair(agent)]);
    } finally {
      agent.destroy();
    }
    expect(pairs.length).toBeGreaterThanOrEqual(3);
    for (const pair of pairs) expect(pair).toEqual({ sameRequestMap: true, sameResponseMap: true });
  });

  function fetchPair(agent?: Agent): Promise<string> {
    return new Promise((resolve, reject) => {
      get({ host: '127.0.0.1', port, path: '/pair', agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve(body));
      }).on('error', reject);
    });
  }
});
