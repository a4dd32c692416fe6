// The work clients send through the proxy while faults happen: payment pushes, invoice uploads with
// PDFs (shipped by e-mail), and API reads, each in a few loops until told to stop.
import { createHash } from 'node:crypto';
import { makePdf } from '../support/pdf.js';
import { type Client, multipart } from './client.js';

export interface Company {
  id: string;
  token: string;
  key: string;
}

export interface Accepted {
  pushes: Array<{ id: string; externalId: string }>;
  uploads: Array<{ id: string; number: string; sha256: string }>;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export interface Load {
  /** Resolves with what was accepted once `stop` says so. */
  done: Promise<Accepted>;
  /** `count` pushes at once, 16 in parallel: a backlog the workers are busy with for a few seconds. */
  burst(count: number): Promise<void>;
}

export function runLoad(client: Client, company: Company, customerId: string, invoices: number, stop: () => boolean): Load {
  const accepted: Accepted = { pushes: [], uploads: [] };
  const bearer = { Authorization: `Token token=${company.token}` };
  let pushNo = 0;
  let uploadNo = 0;
  const loop = async (step: () => Promise<void>, pauseMs: number) => {
    while (!stop()) {
      await step();
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  };
  const push = async () => {
    const n = ++pushNo;
    const externalId = `BANK-${n}`;
    const body = JSON.stringify({
      document_type: 'payment',
      external_id: externalId,
      amount: '1.25',
      invoice_external_id: `RE-${(n % invoices) + 1}`,
      payment_date: '2026-11-20',
    });
    const res = await client.send(
      'push',
      'POST',
      '/v2/documents',
      { Authorization: `ApiKey ${company.key}`, 'Content-Type': 'application/json' },
      body,
    );
    if (res.status === 202) accepted.pushes.push({ id: res.json().document.id, externalId });
  };
  const upload = async () => {
    const n = ++uploadNo;
    const number = `C-${n}`;
    const pdf = await makePdf(`Rechnung ${number}`, 20_000 + n * 97);
    const form = multipart(
      {
        customer_id: customerId,
        invoice_number: number,
        external_id: `UP-${n}`,
        total: '119.00',
        invoice_date: '02.11.2026',
        due_date: '16.11.2026',
        'options[autosend]': 'true',
      },
      { invoice: { name: 'rechnung.pdf', type: 'application/pdf', data: pdf } },
    );
    const res = await client.send('upload', 'POST', '/api/v1/invoices', { ...bearer, 'Content-Type': form.contentType }, form.body);
    if (res.status === 201) accepted.uploads.push({ id: res.json().invoice.id, number, sha256: sha256(pdf) });
  };
  const read = async () => {
    await client.send('read', 'GET', '/api/v1/invoices?page=1', bearer);
    await client.send('read', 'GET', `/api/v1/customers/${customerId}`, bearer);
  };
  const loops = Promise.all([loop(push, 20), loop(push, 20), loop(push, 20), loop(upload, 250), loop(read, 50), loop(read, 50)]);
  return {
    done: loops.then(() => accepted),
    async burst(count) {
      let left = count;
      const worker = async () => {
        while (left-- > 0) await push();
      };
      await Promise.all(Array.from({ length: 16 }, worker));
    },
  };
}

export { sha256 };
