// A throw-away PKI made with openssl: a CA, a server certificate for localhost / 127.0.0.1, a client
// certificate signed by the CA (with its key also encrypted under a passphrase), and a client
// certificate from a rogue CA the server does not trust. Used by the ERP tests and the bench.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ErpPki {
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** clientKey encrypted with CLIENT_KEY_PASSPHRASE. */
  clientKeyEncrypted: string;
  rogueClientCert: string;
  rogueClientKey: string;
  remove(): void;
}

export const CLIENT_KEY_PASSPHRASE = 'Schlüssel-Passwort-1';

export function makeErpPki(): ErpPki {
  const dir = mkdtempSync(join(tmpdir(), 'receivables-erp-pki-'));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ext = (name: string, lines: string[]) => writeFileSync(file(name), [...lines, ''].join('\n'));
  ext('server.ext', [
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
    'basicConstraints=CA:FALSE',
    'keyUsage=digitalSignature,keyEncipherment',
    'extendedKeyUsage=serverAuth',
  ]);
  ext('client.ext', ['basicConstraints=CA:FALSE', 'keyUsage=digitalSignature,keyEncipherment', 'extendedKeyUsage=clientAuth']);
  const ca = (name: string, cn: string) =>
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.crt`,
      '-subj',
      `/CN=${cn}`,
      '-days',
      '2',
    );
  const leaf = (name: string, cn: string, issuer: string, extFile: string) => {
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`);
    openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${issuer}.crt`,
      '-CAkey',
      `${issuer}.key`,
      '-CAcreateserial',
      '-out',
      `${name}.crt`,
      '-days',
      '2',
      '-extfile',
      extFile,
    );
  };
  ca('ca', 'ERP Test CA');
  ca('rogue-ca', 'Rogue CA');
  leaf('server', 'localhost', 'ca', 'server.ext');
  leaf('client', 'RECEIVABLES_PULL', 'ca', 'client.ext');
  leaf('rogue-client', 'RECEIVABLES_PULL', 'rogue-ca', 'client.ext');
  openssl('pkey', '-in', 'client.key', '-aes256', '-passout', `pass:${CLIENT_KEY_PASSPHRASE}`, '-out', 'client-encrypted.key');
  const read = (name: string) => readFileSync(file(name), 'utf8');
  return {
    ca: read('ca.crt'),
    serverCert: read('server.crt'),
    serverKey: read('server.key'),
    clientCert: read('client.crt'),
    clientKey: read('client.key'),
    clientKeyEncrypted: read('client-encrypted.key'),
    rogueClientCert: read('rogue-client.crt'),
    rogueClientKey: read('rogue-client.key'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
