// OAuth 2.0 client credentials (S/4HANA Cloud communication arrangements): one token per lifetime,
// shared by concurrent requests, renewed shortly before it expires and once more after a 401.
import { ConnectorError } from './connector-error.js';
import { ODataClient, type ODataClientOptions } from './odata-client.js';

export type ClientAuthMethod = 'client_secret_post' | 'client_secret_basic';

export interface OAuthCredentials {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope?: string | null;
  /** How the client authenticates at the token endpoint (RFC 6749 §2.3.1); default client_secret_post. */
  authMethod?: ClientAuthMethod;
}

/** application/x-www-form-urlencoded, as RFC 6749 Appendix B and §2.3.1 ask for Basic client credentials. */
const formEncoded = (value: string) => new URLSearchParams([['', value]]).toString().slice(1);

interface CachedToken {
  value: string;
  /** Renewal is due from this moment on (epoch ms). */
  renewAt: number;
}

/** A token endpoint's answer (RFC 6749 §5.1, §5.2) before any of it is trusted. */
interface TokenAnswer {
  access_token?: unknown;
  token_type?: unknown;
  expires_in?: unknown;
  error?: unknown;
  error_description?: unknown;
}

/** Without expires_in the token is kept this long (or until a 401). */
const DEFAULT_LIFETIME_SECONDS = 600;

export class OAuthClientCredentialsClient extends ODataClient {
  private token?: CachedToken;
  private inflight?: Promise<string>;

  constructor(
    options: ODataClientOptions,
    private readonly credentials: OAuthCredentials,
  ) {
    super(options);
  }

  protected async authorization(): Promise<string> {
    return `Bearer ${await this.accessToken()}`;
  }

  /** The cached token, or the one being fetched right now, or a new one: never two fetches at once. */
  async accessToken(): Promise<string> {
    if (this.token && Date.now() < this.token.renewAt) return this.token.value;
    this.inflight ??= this.fetchToken().finally(() => (this.inflight = undefined));
    return this.inflight;
  }

  /** Drops the refused token (unless a newer one came meanwhile) and gets a fresh one; the caller retries once. */
  protected override async renewAfterUnauthorized(sent: string | undefined): Promise<boolean> {
    if (this.token && sent === `Bearer ${this.token.value}`) this.token = undefined;
    await this.accessToken();
    return true;
  }

  protected unauthorizedHint(): string {
    return 'the ERP refused a freshly issued access token (does the communication arrangement grant this service?)';
  }

  private async fetchToken(): Promise<string> {
    const { tokenUrl, clientId, clientSecret, scope, authMethod = 'client_secret_post' } = this.credentials;
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    const fixed: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    // One client authentication method per request (RFC 6749 §2.3): the form fields, or HTTP Basic with
    // id and secret each form-urlencoded first (§2.3.1), which is what a strict endpoint decodes.
    if (authMethod === 'client_secret_basic') {
      fixed.authorization = `Basic ${Buffer.from(`${formEncoded(clientId)}:${formEncoded(clientSecret)}`, 'utf8').toString('base64')}`;
    } else {
      form.set('client_id', clientId);
      form.set('client_secret', clientSecret);
    }
    if (scope) form.set('scope', scope);
    const headers = () => Promise.resolve(fixed);
    const answer = await this.send('POST', tokenUrl, headers, form.toString());
    let body: TokenAnswer = {};
    try {
      // The endpoint's JSON, field by field checked below.
      body = JSON.parse(answer.body) as TokenAnswer;
    } catch {
      // described below
    }
    if (answer.status !== 200) {
      const error =
        typeof body.error === 'string'
          ? ` (${body.error}${typeof body.error_description === 'string' ? `: ${body.error_description}` : ''})`
          : '';
      const what = answer.status === 400 || answer.status === 401 ? 'refused the client credentials' : 'failed';
      throw new ConnectorError('token', `The token endpoint ${this.pathOf(tokenUrl)} ${what}: ${answer.status}${error}`, false, {
        status: answer.status,
      });
    }
    if (typeof body.access_token !== 'string' || !body.access_token) {
      throw new ConnectorError('token', `The token endpoint ${this.pathOf(tokenUrl)} answered without an access_token`);
    }
    const tokenType = typeof body.token_type === 'string' ? body.token_type : JSON.stringify(body.token_type);
    if (body.token_type !== undefined && tokenType.toLowerCase() !== 'bearer') {
      throw new ConnectorError('token', `The token endpoint issued a "${tokenType}" token; only Bearer tokens are supported`);
    }
    const lifetime = Number(body.expires_in ?? DEFAULT_LIFETIME_SECONDS);
    const lifetimeMs = (Number.isFinite(lifetime) && lifetime > 0 ? lifetime : DEFAULT_LIFETIME_SECONDS) * 1000;
    // Renew a little early (a tenth of the lifetime, at most a minute) so no request leaves with a dying token.
    this.token = { value: body.access_token, renewAt: Date.now() + lifetimeMs - Math.min(60_000, lifetimeMs / 10) };
    return body.access_token;
  }
}
