// HTTP Basic with a technical user (on-premise S/4HANA, older ERPs behind a gateway). Only over TLS.
import { ODataClient, type ODataClientOptions } from './odata-client.js';

export class BasicAuthClient extends ODataClient {
  private readonly header: string;

  constructor(options: ODataClientOptions, username: string, password: string) {
    super(options);
    this.header = `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
  }

  protected authorization(): Promise<string> {
    return Promise.resolve(this.header);
  }

  protected unauthorizedHint(): string {
    return 'the ERP refused the user name or password (wrong, expired, locked, or not a system user with OData access)';
  }
}
