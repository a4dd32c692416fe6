import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../../config/app.config.js';
import { loadShippingConfig } from '../../config/shipping.config.js';
import { type PostalLetter, PostalError, PostalProvider, type PostalReceipt } from './postal-provider.js';
import { createPostalProvider, POSTAL_PROVIDERS } from './postal-providers.js';
import { PrintBatchProvider } from './print-batch.provider.js';

/** What adding an HTTP print-and-mail service takes: this one class (and its line in the registry). */
class HttpLetterProvider extends PostalProvider {
  readonly name = 'http_letters';

  constructor(private readonly options: Record<string, string>) {
    super();
  }

  async submit(letter: PostalLetter): Promise<PostalReceipt> {
    const res = await fetch(`${this.options.url}/letters`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.options.api_key}`, 'idempotency-key': letter.reference, 'content-type': 'application/pdf' },
      body: letter.pdf,
    });
    if (!res.ok) throw new PostalError(`print service answered ${res.status}`, res.status >= 400 && res.status < 500 && res.status !== 429);
    return { provider: this.name, providerId: ((await res.json()) as { id: string }).id };
  }
}

const config = (env: Record<string, string>) => loadShippingConfig(env, '/tmp/postal-providers-spec');
const letter: PostalLetter = { reference: 'shp-1', companyId: 'c', day: '2026-11-21', description: 'Mahnung', recipient: ['Kunde AG'], pdf: Buffer.from('%PDF-1.7'), pages: 1 };

describe(createPostalProvider.name, () => {
  it('makes the print batch the default', () => {
    expect(createPostalProvider(config({}))).toBeInstanceOf(PrintBatchProvider);
  });

  it('refuses a name it does not know, naming those it knows', () => {
    expect(() => createPostalProvider(config({ POSTAL_PROVIDER: 'pigeon' }))).toThrow(new ConfigError('POSTAL_PROVIDER must be one of print_batch, got "pigeon"'));
    expect(() => createPostalProvider(config({ POSTAL_PROVIDER: 'constructor' }))).toThrow(ConfigError);
    expect(() => config({ POSTAL_PROVIDER: 'Print Batch' })).toThrow(ConfigError);
  });

  it('takes a new provider class by name, with its settings from POSTAL_PROVIDER_*', async () => {
    const requests: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
        res.writeHead(req.headers.authorization === 'Bearer k-123' ? 201 : 401, { 'content-type': 'application/json' }).end('{"id":"L-77"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const registry = { ...POSTAL_PROVIDERS, http_letters: (c: ReturnType<typeof config>) => new HttpLetterProvider(c.postalProviderOptions) };
      const provider = createPostalProvider(config({ POSTAL_PROVIDER: 'http_letters', POSTAL_PROVIDER_URL: url, POSTAL_PROVIDER_API_KEY: 'k-123' }), registry);
      expect(await provider.submit(letter)).toEqual({ provider: 'http_letters', providerId: 'L-77' });
      expect(requests).toEqual([{ headers: expect.objectContaining({ 'idempotency-key': 'shp-1' }), body: '%PDF-1.7' }]);
      const refused = createPostalProvider(config({ POSTAL_PROVIDER: 'http_letters', POSTAL_PROVIDER_URL: url, POSTAL_PROVIDER_API_KEY: 'wrong' }), registry);
      await expect(refused.submit(letter)).rejects.toMatchObject({ name: 'PostalError', permanent: true });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
