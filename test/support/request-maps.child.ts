// Child process entry, run with --allow-natives-syntax: the real service (createApp) answers the same
// requests one after the other, and this reports, for each pair of consecutive ones, whether their
// request and response objects share V8 maps and are still in fast mode once answered. A separate
// process because jest's module realm hides what a plain Node process does.
import 'reflect-metadata';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/app.setup.js';
import { loadConfig } from '../../src/config/app.config.js';

// eslint-disable-next-line @typescript-eslint/no-implied-eval -- V8's natives syntax is no TypeScript: it can only be compiled at run time (under --allow-natives-syntax)
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- as above, V8's natives syntax compiled at run time
const hasFastProperties = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;

const { databaseUrl } = JSON.parse(process.argv[2] ?? '{}') as { databaseUrl: string };
const config = loadConfig({ APP_ENV: 'test', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: databaseUrl });
const app = await createApp(config, databaseUrl);
await app.listen(0, '127.0.0.1');
const server = app.getHttpServer() as Server;
const answered: Array<{ url: string; req: IncomingMessage; res: ServerResponse }> = [];
server.on('request', (req: IncomingMessage, res: ServerResponse) =>
  res.once('finish', () => answered.push({ url: req.url ?? '', req, res })),
);
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const form = new URLSearchParams({ company_name: 'Maps GmbH', email: `maps-${Date.now()}@example.com`, password: 'Sicher!Passwort1' });
const registered = (await (await fetch(`${origin}/api/v1/registrations`, { method: 'POST', body: form })).json()) as { api_token: string };
const headers = { authorization: `Token token=${registered.api_token}` };
const created = (await (
  await fetch(`${origin}/api/v1/customers`, { method: 'POST', headers, body: new URLSearchParams({ name: 'Kunde' }) })
).json()) as { id: string };
for (const path of [`/api/v1/customers/${created.id}`, '/api/v1/customers?page=1', '/api/v1/customers/cus-unknown']) {
  for (let i = 0; i < 4; i++) await (await fetch(origin + path, { headers })).arrayBuffer();
}
// The access line is written on 'finish' as well: let it go first.
await new Promise((resolve) => setTimeout(resolve, 100));

const pairs = answered.slice(1).flatMap((current, i) => {
  const previous = answered[i];
  if (previous.url !== current.url) return [];
  return [
    {
      url: current.url,
      sameRequestMap: haveSameMap(previous.req, current.req),
      sameResponseMap: haveSameMap(previous.res, current.res),
      fastRequest: hasFastProperties(current.req),
      fastResponse: hasFastProperties(current.res),
    },
  ];
});
process.stdout.write(`\nPAIRS ${JSON.stringify(pairs)}\n`);
await app.close();
process.exit(0);
