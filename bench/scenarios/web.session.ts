// The web bench's browser: registers a company through the API, lets the caller seed it, signs its user
// in through the sign-in form (CSRF token and session cookie, as a browser does), and times GETs.
import { performance } from 'node:perf_hooks';

export interface Session {
  cookie: string;
  /** A customer of the company (cus-…), for the customer filter. */
  customerId: string;
}

const EMAIL = 'bench@example.com';
const PASSWORD = 'Bench!Passwort1';

const cookiesOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(';')[0]);

export async function signIn(origin: string, seed: (companyId: string) => Promise<void>): Promise<Session> {
  const registered = await fetch(`${origin}/api/v1/registrations`, {
    method: 'POST',
    body: new URLSearchParams({ company_name: 'Bench Web GmbH', email: EMAIL, password: PASSWORD }),
  });
  if (registered.status !== 201) throw new Error(`registration answered ${registered.status}: ${await registered.text()}`);
  const { company, api_token: token } = (await registered.json()) as { company: { id: string }; api_token: string };
  await seed(company.id.slice('com-'.length));
  const form = await fetch(`${origin}/sign-in`);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1];
  if (!csrf) throw new Error('no CSRF token on the sign-in page');
  const signedIn = await fetch(`${origin}/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: cookiesOf(form).join('; ') },
    body: new URLSearchParams({ _csrf: csrf, email: EMAIL, password: PASSWORD }),
  });
  if (signedIn.status !== 303) throw new Error(`sign-in answered ${signedIn.status}`);
  const cookie = cookiesOf(signedIn).join('; ');
  const customers = await fetch(`${origin}/api/v1/customers?per_page=1`, { headers: { authorization: `Token token=${token}` } });
  const customerId = ((await customers.json()) as { customers: Array<{ id: string }> }).customers[0].id;
  return { cookie, customerId };
}

export interface Timings {
  /** Requests measured, and all requests (warm-up included: the CPU samples span both). */
  count: number;
  total: number;
  p50: number;
  p95: number;
  p99: number;
}

/** GETs `url` on `connections` loops for warm-up and then the measured seconds; every answer must be a 200. */
export async function timedGets(
  url: string,
  cookie: string,
  options: { connections: number; warmupSec: number; durationSec: number },
): Promise<Timings> {
  const durations: number[] = [];
  let total = 0;
  const warmupEnd = Date.now() + options.warmupSec * 1000;
  const end = warmupEnd + options.durationSec * 1000;
  const loop = async () => {
    while (Date.now() < end) {
      const started = performance.now();
      const res = await fetch(url, { headers: { cookie } });
      await res.arrayBuffer();
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
      total++;
      if (started > warmupEnd - performance.timeOrigin) durations.push(ms);
    }
  };
  await Promise.all(Array.from({ length: options.connections }, loop));
  durations.sort((a, b) => a - b);
  const at = (q: number) => Math.round(durations[Math.min(durations.length - 1, Math.floor(q * durations.length))] * 10) / 10;
  return { count: durations.length, total, p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}
