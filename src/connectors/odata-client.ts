// The port to an ERP's OData services: one page of an entity set, or all of them in order. The
// transport is here once (https-exchange.ts: TLS 1.2+, verified; SSRF guard on every connect; timeouts;
// retries with backoff and Retry-After), as are the 401 renewal and paging (odata-paging.ts); the three
// auth methods differ only in how a request is authorized and which certificate the TLS handshake
// presents (see odata-client.factory.ts).
import { ConnectorError } from './connector-error.js';
import { type HttpAnswer, HttpsExchange, type TransportOptions } from './https-exchange.js';
import { type ODataPage, type PagingOptions, prefetching, sequentialPages } from './odata-paging.js';
import { errorMessage, type ODataQuery, type ODataVersion, PayloadError, parsePayload, queryString } from './odata-wire.js';

export type { ODataPage, PagingOptions } from './odata-paging.js';

export interface ODataClientOptions extends TransportOptions {
  version: ODataVersion;
  sapClient?: string | null;
}

export abstract class ODataClient extends HttpsExchange {
  declare protected readonly options: ODataClientOptions;

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
      throw new ConnectorError(
        'protocol',
        `Unexpected answer from ${this.pathOf(url)}: ${error.message} (is odata_version ${this.options.version} right?)`,
        false,
        { url },
      );
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
    return prefetching(sequentialPages((set, q) => this.getPage(set, q), entitySet, query, paging));
  }

  /**
   * A V2 function import called with GET (`path` under the base URL, e.g. a service's GetPDF): its
   * result object, the value of `d` or `d.<name>`. String parameters are quoted as OData literals.
   */
  async callFunction(path: string, parameters: Record<string, string>): Promise<Record<string, unknown>> {
    const query = Object.entries(parameters)
      .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(`'${value.replace(/'/g, "''")}'`)}`)
      .join('&');
    const url = this.withSapClient(`${this.base.origin}${this.base.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}?${query}`);
    const answer = await this.authorizedGet(url);
    if (answer.status < 200 || answer.status >= 300) throw this.httpError(answer, path, url);
    const name = path.split('/').pop()!;
    try {
      const d = (JSON.parse(answer.body) as { d?: Record<string, unknown> }).d;
      const result = d && typeof d[name] === 'object' && d[name] !== null ? (d[name] as Record<string, unknown>) : d;
      if (!result || typeof result !== 'object') throw new Error('no "d" object');
      return result;
    } catch (error) {
      throw new ConnectorError('protocol', `Unexpected answer from ${this.pathOf(url)}: ${(error as Error).message}`, false, { url });
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

  protected httpError(answer: HttpAnswer, entitySet: string, url: string): ConnectorError {
    const said = errorMessage(answer.body);
    const suffix = said ? ` The ERP says: ${said}` : '';
    const path = this.pathOf(url);
    const details = { status: answer.status, url };
    switch (answer.status) {
      case 401:
        return new ConnectorError('unauthorized', `401 Unauthorized for ${path}: ${this.unauthorizedHint()}.${suffix}`, false, details);
      case 403:
        return new ConnectorError(
          'forbidden',
          `403 Forbidden for ${path}: the technical user lacks the authorization to read ${entitySet}.${suffix}`,
          false,
          details,
        );
      case 404:
        return new ConnectorError(
          'not_found',
          `404 Not Found for ${path}: the service path or entity set does not exist on the ERP (is the OData service activated?).${suffix}`,
          false,
          details,
        );
      default:
        return new ConnectorError('http', `${answer.status} from ${path}.${suffix}`, false, details);
    }
  }
}
