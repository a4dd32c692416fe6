// Child process entry: the baseline for the invoices bench. A bare node:http handler with a pg.Pool of
// the service's size that does what creating an invoice needs at the least: it finds the company by
// the API token (one SELECT, as the service's token lookup), parses the multipart body with busboy
// (multer's parser), streams the PDF into the document folder as the service's LocalDocumentStore
// writes a document (hidden temp file in the target folder, fsync, rename, fsync of the folder; the
// same key layout), hashing and counting on the way, and inserts one invoice row with those figures.
// Then 201 and a small JSON body. No framework, no validation beyond what the row needs, no PDF parse,
// no temp upload file, no event row, no read-back, no logging.
import busboy from 'busboy';
import { createHash, randomUUID } from 'node:crypto';
import { type FileHandle, mkdir, open, rename, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import pg from 'pg';
import { hashSecret } from '../../src/auth/secrets.js';
import { newUuid, parsePublicId, toPublicId } from '../../src/common/ids.js';
import { serveForParent } from '../support/child-server.js';

export interface InvoicesBareServerOptions {
  databaseUrl: string;
  poolSize: number;
  /** Root of the stored documents, as the service's `<DATA_DIR>/documents`. */
  documentsDir: string;
}

const TOKEN_HEADER = /^Token\s+token=("?)([A-Za-z0-9_\-.~+/=]{1,512})\1\s*$/i;
const DATE = /^(\d{2})\.(\d{2})\.(\d{4})$/;
const MAX_BYTES = 20 * 1024 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) });
  res.end(json);
}

/** `DD.MM.YYYY` → `YYYY-MM-DD`, or null. */
function isoDate(value: string | undefined): string | null {
  const match = value ? DATE.exec(value) : null;
  return match ? `${match[3]}-${match[2]}-${match[1]}` : null;
}

const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

interface StoredFile {
  path: string;
  size: number;
  sha256: Buffer;
}

/** The service's LocalDocumentStore.writeAtomically, with the upload stream as the source. */
async function storeDocument(path: string, source: Readable): Promise<StoredFile> {
  const folder = dirname(path);
  await mkdir(folder, { recursive: true });
  const temp = join(folder, `.${basename(path)}.${randomUUID()}.tmp`);
  const handle = await open(temp, 'wx', 0o640);
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BYTES) throw new HttpError(413, 'invoice is too large');
      hash.update(chunk);
      await handle.writeFile(chunk);
    }
    await handle.sync();
    await handle.close();
    await rename(temp, path);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
  await syncFolder(folder);
  return { path, size, sha256: hash.digest() };
}

async function syncFolder(folder: string): Promise<void> {
  const handle: FileHandle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Reads the form: text fields, and the `invoice` file stored under `key` while it arrives. */
function parseForm(req: IncomingMessage, path: string): Promise<{ fields: Record<string, string>; file?: StoredFile }> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let stored: Promise<StoredFile> | undefined;
    let form;
    try {
      form = busboy({ headers: req.headers, limits: { fields: 200, fieldSize: 64 * 1024, files: 2, fileSize: MAX_BYTES + 1 } });
    } catch (error) {
      return reject(new HttpError(400, String(error)));
    }
    form.on('field', (name, value) => (fields[name] = value));
    form.on('file', (name, stream) => {
      if (name !== 'invoice' || stored) {
        stream.resume();
        return;
      }
      stored = storeDocument(path, stream);
      // Awaited at 'close'; an early failure must not go unhandled meanwhile.
      stored.catch(() => undefined);
    });
    form.on('error', (error) => reject(new HttpError(400, error.message)));
    // A client that goes away mid-body (autocannon at the end of a run): busboy passes the error to the
    // file stream, so the temp file is closed and removed instead of waiting forever.
    req.once('close', () => {
      if (!req.complete) form.destroy(new Error('the client went away'));
    });
    form.on('close', () => {
      if (!stored) return resolve({ fields });
      stored.then((file) => resolve({ fields, file }), reject);
    });
    req.pipe(form);
  });
}

serveForParent<InvoicesBareServerOptions>(async ({ databaseUrl, poolSize, documentsDir }) => {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });

  async function companyOf(req: IncomingMessage): Promise<string | undefined> {
    const match = TOKEN_HEADER.exec(req.headers.authorization ?? '');
    if (!match) return undefined;
    const { rows } = await pool.query<{ id: string; company_id: string; name: string; time_zone: string }>(
      `SELECT t.id, c.id AS company_id, c.name, c.time_zone
         FROM api_tokens t JOIN companies c ON c.id = t.company_id
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL`,
      [hashSecret(match[2])],
    );
    return rows[0]?.company_id;
  }

  async function createInvoice(req: IncomingMessage): Promise<[number, unknown]> {
    const companyId = await companyOf(req);
    if (!companyId) throw new HttpError(401, 'unauthorized');
    const id = newUuid();
    const key = `${companyId}/invoices/${id}/invoice.pdf`;
    const { fields, file } = await parseForm(req, join(documentsDir, key));
    try {
      if (!file) throw new HttpError(422, 'invoice (a PDF file) is required');
      const customerId = parsePublicId('cus', fields.customer_id ?? '');
      if (!customerId) throw new HttpError(422, 'customer_id is required');
      const invoiceDate = isoDate(fields.invoice_date);
      const dueDate = isoDate(fields.due_date);
      const total = fields.total ?? '0.00';
      const now = new Date();
      await pool.query(
        `INSERT INTO invoices (company_id, id, external_id, customer_id, invoice_number, additional_number, status,
           original_total, reminder_fees, paid_amount, open_amount, net, vat7, vat19, order_date, invoice_date, due_date,
           time_for_payment, source, pdf_key, pdf_size, pdf_sha256, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'draft', $7, 0, 0, $7, $8, $9, $10, $11, $12, $13, $14, 'API', $15, $16, $17, $18, $18)`,
        [
          companyId,
          id,
          fields.external_id ?? null,
          customerId,
          fields.invoice_number ?? null,
          fields.additional_number ?? null,
          total,
          fields.net ?? null,
          fields.vat7 ?? null,
          fields.vat19 ?? null,
          isoDate(fields.order_date),
          invoiceDate,
          dueDate,
          invoiceDate && dueDate ? daysBetween(invoiceDate, dueDate) : null,
          key,
          String(file.size),
          file.sha256,
          now,
        ],
      );
      return [
        201,
        {
          invoice: {
            id: toPublicId('inv', id),
            external_id: fields.external_id ?? null,
            invoice_number: fields.invoice_number ?? null,
            invoice_status: 'draft',
            total,
          },
        },
      ];
    } catch (error) {
      if (file) await rm(file.path, { force: true });
      throw error;
    }
  }

  const server = createServer((req, res) => {
    const handled: Promise<[number, unknown]> =
      req.method === 'POST' && req.url === '/api/v1/invoices' ? createInvoice(req) : Promise.resolve([404, { title: 'not found' }]);
    handled.then(
      ([status, body]) => send(res, status, body),
      (error: unknown) => {
        // Whatever of the body is left must be read, or the connection stalls.
        req.resume();
        send(res, error instanceof HttpError ? error.status : 500, { title: String(error) });
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await pool.end();
    },
  };
});
