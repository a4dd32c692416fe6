// The transport under the OData client, once for every auth method: TLS 1.2+, verified; the SSRF guard
// on every connect; inactivity timeouts and a deadline per attempt; retries with backoff and
// Retry-After; a bound on the answer's size; an X-Request-ID on every request.
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import { Agent, type Dispatcher, request } from 'undici';
import { ConnectorError, classifyTransportError } from './connector-error.js';
import { assertAllowedHost, guardedLookup } from './network-guard.js';
import { errorMessage } from './odata-wire.js';
import { backoffMs, isRetryableStatus, parseRetryAfter, type RetryPolicy, sleep } from './retry-policy.js';

export interface TransportOptions {
  /** https://host[:port][/prefix]; service paths are appended to it. */
  baseUrl: string;
  /** PEM bundle trusted in addition to the public roots (an on-premise ERP's own CA). */
  caCertificates?: string | null;
  allowPrivateNetworks: boolean;
  /** connect, headers and body are inactivity timeouts; total bounds one attempt as a whole. */
  timeouts: { connectMs: number; headersMs: number; bodyMs: number; totalMs?: number };
  retry: RetryPolicy;
  /** Request n carries X-Request-ID `<prefix>-<n>`: the pull run's id and a sequence. */
  requestIdPrefix: string;
  /** Aborts whatever is in flight or waiting (the run ends, the service shuts down). */
  signal?: AbortSignal;
  /** Sees every HTTP exchange, retries included. */
  onExchange?: (event: ExchangeEvent) => void;
  /** Larger answers are refused rather than held in memory. */
  maxResponseBytes?: number;
}

export interface ClientCertificate {
  cert: string;
  key: string;
  passphrase?: string;
}

export interface ExchangeEvent {
  requestId: string;
  method: string;
  url: string;
  attempt: number;
  status?: number;
  error?: string;
  durationMs: number;
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024 * 1024;
const DEFAULT_TOTAL_MS = 300_000;

export abstract class HttpsExchange {
  protected readonly agent: Agent;
  protected readonly base: URL;
  private sequence = 0;

  constructor(
    protected readonly options: TransportOptions,
    clientCertificate?: ClientCertificate,
  ) {
    this.base = new URL(options.baseUrl.replace(/\/+$/, ''));
    if (this.base.protocol !== 'https:') throw new ConnectorError('protocol', 'The ERP base URL must use https://');
    const extraCa = options.caCertificates?.trim() ? [options.caCertificates] : [];
    this.agent = new Agent({
      connect: {
        minVersion: 'TLSv1.2',
        rejectUnauthorized: true,
        ca: extraCa.length ? [...rootCertificates, ...extraCa] : undefined,
        ...(clientCertificate ?? {}),
        lookup: guardedLookup(options.allowPrivateNetworks),
        timeout: options.timeouts.connectMs,
      },
      headersTimeout: options.timeouts.headersMs,
      bodyTimeout: options.timeouts.bodyMs,
      connections: 4,
    });
  }

  protected presentsClientCertificate(): boolean {
    return false;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /** One request with the retry policy (network errors, 429, 5xx); other answers are returned as they are. */
  protected async send(method: 'GET' | 'POST', url: string, headers: () => Promise<Record<string, string>>, body?: string): Promise<HttpAnswer> {
    const { retry, signal } = this.options;
    const target = new URL(url);
    if (target.protocol !== 'https:') throw new ConnectorError('protocol', `Refused: ${this.pathOf(url)} is not https://`);
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal)) {
      try {
        await assertAllowedHost(literal, this.options.allowPrivateNetworks);
      } catch (error) {
        throw classifyTransportError(Object.assign(error as Error, { code: 'ERP_ADDRESS_REFUSED' }), target.host, false);
      }
    }
    for (let attempt = 1; ; attempt++) {
      const requestId = `${this.options.requestIdPrefix}-${String(++this.sequence).padStart(6, '0')}`;
      const started = Date.now();
      let answer: HttpAnswer | undefined;
      let failure: ConnectorError | undefined;
      try {
        answer = await this.once(method, url, { ...(await headers()), 'x-request-id': requestId }, body);
      } catch (error) {
        if (signal?.aborted) throw new ConnectorError('aborted', `The pull was stopped: ${String(signal.reason ?? 'aborted')}`);
        failure = error instanceof ConnectorError ? error : classifyTransportError(error, target.host, this.presentsClientCertificate());
      }
      this.options.onExchange?.({ requestId, method, url, attempt, status: answer?.status, error: failure?.message, durationMs: Date.now() - started });
      if (answer && !isRetryableStatus(answer.status)) return answer;
      const retryAfter = answer ? parseRetryAfter(answer.headers['retry-after']) : undefined;
      const error = failure ?? this.statusError(answer!, url);
      if (!error.retryable || attempt > retry.retries) {
        if (attempt > 1 && error.retryable) error.message = `${error.message} (gave up after ${attempt} attempts)`;
        throw error;
      }
      if (retryAfter !== undefined && retryAfter > retry.maxRetryAfterMs) {
        throw new ConnectorError('throttled', `${error.message}; the ERP asks to wait ${Math.round(retryAfter / 1000)} s, longer than allowed: the next run tries again`, false, {
          status: answer?.status,
          retryAfterMs: retryAfter,
        });
      }
      await sleep(retryAfter ?? backoffMs(retry, attempt), signal).catch(() => {
        throw new ConnectorError('aborted', `The pull was stopped: ${String(signal?.reason ?? 'aborted')}`);
      });
    }
  }

  private async once(method: string, url: string, headers: Record<string, string>, body?: string): Promise<HttpAnswer> {
    const totalMs = this.options.timeouts.totalMs ?? DEFAULT_TOTAL_MS;
    const deadline = AbortSignal.timeout(totalMs);
    const signal = this.options.signal ? AbortSignal.any([this.options.signal, deadline]) : deadline;
    const limit = this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    try {
      const res = await request(url, { method: method as Dispatcher.HttpMethod, headers, body, dispatcher: this.agent, signal });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > limit) {
          res.body.destroy();
          throw new ConnectorError('protocol', `The answer of ${this.pathOf(url)} is larger than ${limit} bytes; lower the page size`);
        }
        chunks.push(chunk as Buffer);
      }
      return { status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks, size).toString('utf8') };
    } catch (error) {
      if (deadline.aborted && !this.options.signal?.aborted && !(error instanceof ConnectorError)) {
        throw new ConnectorError('timeout', `${new URL(url).host} did not complete its answer within ${totalMs} ms (the deadline of one request)`, true, { code: 'ERP_REQUEST_DEADLINE' });
      }
      throw error;
    }
  }

  private statusError(answer: HttpAnswer, url: string): ConnectorError {
    const said = errorMessage(answer.body);
    const suffix = said ? `: ${said}` : '';
    if (answer.status === 429) return new ConnectorError('throttled', `429 Too Many Requests from ${this.pathOf(url)}${suffix}`, true, { status: 429 });
    return new ConnectorError('server', `${answer.status} from ${this.pathOf(url)} (an error on the ERP's side)${suffix}`, true, { status: answer.status });
  }

  /** Path and query of a URL, for messages (the host is the connection's own). */
  protected pathOf(url: string): string {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search ? decodeURIComponent(parsed.search) : ''}`.slice(0, 300);
  }
}
