// The port to an ERP's OData services: one page of an entity set, or all of them in order. The
// transport is here once (TLS 1.2+, verified; SSRF guard on every connect; timeouts; retries with
// backoff and Retry-After; 401 renewal; paging); the three auth methods differ only in how a request
// is authorized and which certificate the TLS handshake presents (see odata-client.factory.ts).
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import { Agent, type Dispatcher, request } from 'undici';
import { ConnectorError, classifyTransportError } from './connector-error.js';
import { assertAllowedHost, guardedLookup } from './network-guard.js';
import { errorMessage, type ODataQuery, type ODataRecord, type ODataVersion, PayloadError, parsePayload, queryString } from './odata-wire.js';
import { backoffMs, isRetryableStatus, parseRetryAfter, type RetryPolicy, sleep } from './retry-policy.js';

export interface ODataClientOptions {
  /** https://host[:port][/prefix]; service paths are appended to it. */
  baseUrl: string;
  version: ODataVersion;
  sapClient?: string | null;
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

export interface ODataPage {
  records: ODataRecord[];
  /** The total the server announced ($inlinecount / $count), on the first page of a query. */
  count?: number;
  /** Absolute, resolved against the configured base URL. */
  nextLink?: string;
  url: string;
}

export interface PagingOptions {
  /** $top per request, at most 5000 on SAP. */
  pageSize: number;
  /** Key properties, to notice a server that ignores $skip. */
  keyFields?: readonly string[];
}

const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024 * 1024;
const DEFAULT_TOTAL_MS = 300_000;

export abstract class ODataClient {
  protected readonly agent: Agent;
  private readonly base: URL;
  private sequence = 0;

  constructor(
    protected readonly options: ODataClientOptions,
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

  get version(): ODataVersion {
    return this.options.version;
  }

  /** The Authorization header for the next request, if the method uses one. */
  protected abstract authorization(): Promise<string | undefined>;

  /** After a 401 answered to a request sent with `sent`: true when fresh credentials make one more try worthwhile. */
  protected renewAfterUnauthorized(_sent: string | undefined): Promise<boolean> {
    return Promise.resolve(false);
  }

  /** What a 401 most likely means for this auth method. */
  protected abstract unauthorizedHint(): string;

  protected presentsClientCertificate(): boolean {
    return false;
  }

  /** `entitySet` is its path under the base URL: service path + entity set name. */
  async getPage(entitySet: string, query: ODataQuery | { nextLink: string }): Promise<ODataPage> {
    const url = 'nextLink' in query ? this.withSapClient(query.nextLink) : this.entityUrl(entitySet, query);
    const answer = await this.authorizedGet(url);
    if (answer.status < 200 || answer.status >= 300) throw this.httpError(answer, entitySet, url);
    let parsed;
    try {
      parsed = parsePayload(this.options.version, answer.body);
    } catch (error) {
      if (!(error instanceof PayloadError)) throw error;
      throw new ConnectorError('protocol', `Unexpected answer from ${this.pathOf(url)}: ${error.message} (is odata_version ${this.options.version} right?)`, false, { url });
    }
    return { records: parsed.records, count: parsed.count, nextLink: parsed.next && this.resolveNext(parsed.next, url), url };
  }

  /**
   * Every page of a query, in order, with the next one already being fetched while the caller works on
   * the current one. Client paging by $top/$skip windows; inside a window the server's next links are
   * followed; a server that ignores $top (sends everything at once) is fine too. Ends with an
   * `incomplete` error when fewer records arrived than the server announced.
   */
  pages(entitySet: string, query: ODataQuery, paging: PagingOptions): AsyncGenerator<ODataPage> {
    return prefetching(this.sequentialPages(entitySet, query, paging));
  }

  private async *sequentialPages(entitySet: string, query: ODataQuery, paging: PagingOptions): AsyncGenerator<ODataPage> {
    const top = paging.pageSize;
    let skip = 0;
    let expected: number | undefined;
    let received = 0;
    let previousFirstKey: string | undefined;
    for (let window = 0; ; window++) {
      let page = await this.getPage(entitySet, { ...query, top, skip, count: window === 0 });
      if (window === 0) expected = page.count;
      const firstKey = paging.keyFields && page.records[0] ? JSON.stringify(paging.keyFields.map((f) => page.records[0][f])) : undefined;
      if (window > 0 && firstKey !== undefined && firstKey === previousFirstKey) {
        throw new ConnectorError('protocol', `${entitySet} answers every $skip with the same records: the server ignores $skip`);
      }
      previousFirstKey = firstKey;
      let inWindow = 0;
      const seenLinks = new Set<string>();
      for (;;) {
        inWindow += page.records.length;
        const next = page.nextLink;
        yield page;
        if (!next) break;
        if (seenLinks.has(next)) throw new ConnectorError('protocol', `${entitySet} sent the same next link twice: ${next}`);
        seenLinks.add(next);
        page = await this.getPage(entitySet, { nextLink: next });
      }
      received += inWindow;
      // Fewer than $top: the end. More: the server ignored $top and sent everything there is.
      if (inWindow !== top) break;
      if (expected !== undefined && received >= expected) break;
      skip += inWindow;
    }
    if (expected !== undefined && received < expected) {
      throw new ConnectorError(
        'incomplete',
        `${entitySet}: the server announced ${expected} records but sent ${received} (records changed during paging?); the watermark stays, the next run reads them again`,
      );
    }
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

  private async authorizedGet(url: string): Promise<HttpAnswer> {
    let authorization: string | undefined;
    const headers = async () => {
      authorization = await this.authorization();
      return this.odataHeaders(authorization);
    };
    const answer = await this.send('GET', url, headers);
    if (answer.status === 401 && (await this.renewAfterUnauthorized(authorization))) return this.send('GET', url, headers);
    return answer;
  }

  private odataHeaders(authorization: string | undefined): Record<string, string> {
    const headers: Record<string, string> =
      this.options.version === 'v2'
        ? { accept: 'application/json', dataserviceversion: '2.0', maxdataserviceversion: '2.0' }
        : { accept: 'application/json;IEEE754Compatible=true', 'odata-version': '4.0', 'odata-maxversion': '4.0' };
    headers['user-agent'] = 'receivables-service-erp-pull/1';
    if (this.options.sapClient) headers['sap-client'] = this.options.sapClient;
    if (authorization) headers.authorization = authorization;
    return headers;
  }

  private entityUrl(entitySet: string, query: ODataQuery): string {
    const path = `${this.base.pathname.replace(/\/+$/, '')}/${entitySet.replace(/^\/+/, '')}`;
    return this.withSapClient(`${this.base.origin}${path}?${queryString(this.options.version, query)}`);
  }

  /** sap-client as a URL parameter too: proxies may strip the header, and next links may lack it. */
  private withSapClient(url: string): string {
    const client = this.options.sapClient;
    if (!client || /[?&]sap-client=/.test(url)) return url;
    return `${url}${url.includes('?') ? '&' : '?'}sap-client=${encodeURIComponent(client)}`;
  }

  /** A next link may be relative, or name an internal host: it is always followed on the configured host. */
  private resolveNext(next: string, current: string): string {
    const target = new URL(next, current);
    if (target.origin === this.base.origin) return this.withSapClient(target.href);
    const prefix = this.base.pathname.replace(/\/+$/, '');
    const path = prefix && !target.pathname.startsWith(`${prefix}/`) ? `${prefix}${target.pathname}` : target.pathname;
    return this.withSapClient(`${this.base.origin}${path}${target.search}`);
  }

  private statusError(answer: HttpAnswer, url: string): ConnectorError {
    const said = errorMessage(answer.body);
    const suffix = said ? `: ${said}` : '';
    if (answer.status === 429) return new ConnectorError('throttled', `429 Too Many Requests from ${this.pathOf(url)}${suffix}`, true, { status: 429 });
    return new ConnectorError('server', `${answer.status} from ${this.pathOf(url)} (an error on the ERP's side)${suffix}`, true, { status: answer.status });
  }

  protected httpError(answer: HttpAnswer, entitySet: string, url: string): ConnectorError {
    const said = errorMessage(answer.body);
    const suffix = said ? ` The ERP says: ${said}` : '';
    const path = this.pathOf(url);
    const details = { status: answer.status, url };
    switch (answer.status) {
      case 401:
        return new ConnectorError('unauthorized', `401 Unauthorized for ${path}: ${this.unauthorizedHint()}.${suffix}`, false, details);
      case 403:
        return new ConnectorError('forbidden', `403 Forbidden for ${path}: the technical user lacks the authorization to read ${entitySet}.${suffix}`, false, details);
      case 404:
        return new ConnectorError('not_found', `404 Not Found for ${path}: the service path or entity set does not exist on the ERP (is the OData service activated?).${suffix}`, false, details);
      default:
        return new ConnectorError('http', `${answer.status} from ${path}.${suffix}`, false, details);
    }
  }

  /** Path and query of a URL, for messages (the host is the connection's own). */
  protected pathOf(url: string): string {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search ? decodeURIComponent(parsed.search) : ''}`.slice(0, 300);
  }
}

/** Keeps one `next()` of the source in flight while the consumer handles the value it got. */
async function* prefetching<T>(source: AsyncGenerator<T>): AsyncGenerator<T> {
  let pending = source.next();
  try {
    for (;;) {
      const result = await pending;
      if (result.done) return;
      pending = source.next();
      yield result.value;
    }
  } finally {
    // The consumer stopped early (or failed): the prefetch may still settle; nobody waits for it.
    pending.catch(() => undefined);
    source.return(undefined).catch(() => undefined);
  }
}
