// The clients' side of the cluster test: HTTPS through the proxy (trusting the run's own CA), every
// answer recorded with its time and Retry-After, judged afterwards against the fault windows.
import { Agent, request } from 'undici';
import type { Json } from '../support/factories.js';

export interface Answer {
  what: string;
  status: number;
  at: number;
  retryAfter: boolean;
  /** 0 for an answer that never came (connection error); its text then. */
  error?: string;
}

export interface FaultWindow {
  name: string;
  from: number;
  to: number;
  /** kill -9 only: when the killed replica was started again (its window ends once it is back and ticking). */
  restartedAt?: number;
}

export interface Reply {
  status: number;
  body: Buffer;
  json(): Json;
}

export class Client {
  readonly answers: Answer[] = [];
  private readonly agent: Agent;

  constructor(
    readonly origin: string,
    ca: string,
  ) {
    this.agent = new Agent({ connect: { ca, servername: 'localhost' }, connections: 32, keepAliveTimeout: 4000 });
  }

  async send(what: string, method: string, path: string, headers: Record<string, string>, body?: Buffer | string): Promise<Reply> {
    const at = Date.now();
    try {
      const res = await request(`${this.origin}${path}`, {
        method: method as 'GET',
        headers,
        body,
        dispatcher: this.agent,
        headersTimeout: 60_000,
        bodyTimeout: 60_000,
      });
      const data = Buffer.from(await res.body.arrayBuffer());
      this.answers.push({ what, status: res.statusCode, at, retryAfter: res.headers['retry-after'] !== undefined });
      return { status: res.statusCode, body: data, json: () => JSON.parse(data.toString('utf8')) as Json };
    } catch (error) {
      this.answers.push({ what, status: 0, at, retryAfter: false, error: error instanceof Error ? error.message : String(error) });
      return { status: 0, body: Buffer.alloc(0), json: () => ({}) };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** 2xx and 429 any time; 502/503 (and a broken connection) only inside a fault window (plus `slackMs`); 503 with Retry-After. */
export function unexpectedAnswers(answers: Answer[], windows: FaultWindow[], slackMs: number): Answer[] {
  const inWindow = (at: number) => windows.some((w) => at >= w.from - 1000 && at <= w.to + slackMs);
  return answers.filter((a) => {
    if ((a.status >= 200 && a.status < 300) || a.status === 429) return false;
    if (a.status === 503) return !(inWindow(a.at) && a.retryAfter);
    if (a.status === 502 || a.status === 0) return !inWindow(a.at);
    return true;
  });
}

export function multipart(fields: Record<string, string>, files: Record<string, { name: string; type: string; data: Buffer }>) {
  const boundary = `----cluster${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const [name, file] of Object.entries(files)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
