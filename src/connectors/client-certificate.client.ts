// X.509 client certificate: the TLS handshake presents certificate and key; the ERP maps the
// certificate to its technical user. No Authorization header.
import type { ClientCertificate } from './https-exchange.js';
import { ODataClient, type ODataClientOptions } from './odata-client.js';

export class ClientCertificateClient extends ODataClient {
  constructor(options: ODataClientOptions, certificate: ClientCertificate) {
    super(options, certificate);
  }

  protected async authorization(): Promise<undefined> {
    return undefined;
  }

  protected override presentsClientCertificate(): boolean {
    return true;
  }

  protected unauthorizedHint(): string {
    return 'the ERP accepted the TLS handshake but maps the client certificate to no user (check its certificate mapping)';
  }
}
