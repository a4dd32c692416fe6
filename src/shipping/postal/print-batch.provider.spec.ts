import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { parseCsv, toCsv } from './csv.js';
import type { PostalLetter } from './postal-provider.js';
import { PrintBatchProvider } from './print-batch.provider.js';

async function pdfWithPages(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([595, 842]);
  return doc.save();
}

describe(PrintBatchProvider.name, () => {
  let root: string;
  let provider: PrintBatchProvider;
  const dir = () => join(root, 'company-1', '2026-11-21');
  const letter = async (reference: string, pages = 1): Promise<PostalLetter> => ({
    reference,
    companyId: 'company-1',
    day: '2026-11-21',
    description: `Mahnung ${reference}`,
    recipient: ['Kunde AG', 'Allee 2, Hinterhaus', '20095 Hamburg'],
    pdf: await pdfWithPages(pages),
    pages,
  });
  const batchPages = async () => (await PDFDocument.load(await readFile(join(dir(), 'batch.pdf')))).getPageCount();
  const manifest = async () => parseCsv(await readFile(join(dir(), 'manifest.csv'), 'utf8'));

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'print-batch-'));
    provider = new PrintBatchProvider(root, 0);
  });
  afterEach(async () => rm(root, { recursive: true, force: true }));

  it('collects the day’s letters in one batch PDF and a manifest with each letter’s first page', async () => {
    expect(await provider.submit(await letter('a', 2))).toEqual({ provider: 'print_batch', providerId: '2026-11-21/1' });
    expect(await provider.submit(await letter('b', 1))).toEqual({ provider: 'print_batch', providerId: '2026-11-21/2' });
    await provider.flush();
    expect(await batchPages()).toBe(3);
    const rows = await manifest();
    expect(rows[0]).toEqual(['sequence', 'first_page', 'pages', 'reference', 'description', 'recipient', 'submitted_at']);
    expect(rows.slice(1).map((r) => r.slice(0, 6))).toEqual([
      ['1', '1', '2', 'a', 'Mahnung a', 'Kunde AG, Allee 2, Hinterhaus, 20095 Hamburg'],
      ['2', '3', '1', 'b', 'Mahnung b', 'Kunde AG, Allee 2, Hinterhaus, 20095 Hamburg'],
    ]);
  });

  it('takes the same reference once (a retried delivery)', async () => {
    await provider.submit(await letter('a'));
    expect(await provider.submit(await letter('a'))).toEqual({ provider: 'print_batch', providerId: '2026-11-21/1' });
    await provider.flush();
    expect(await batchPages()).toBe(1);
    expect(await manifest()).toHaveLength(2);
  });

  it('serialises concurrent submissions, also from a second provider on the same folder', async () => {
    const other = new PrintBatchProvider(root, 0);
    const letters = await Promise.all(Array.from({ length: 8 }, (_, i) => letter(`r${i}`)));
    await Promise.all(letters.map((l, i) => (i % 2 ? provider : other).submit(l)));
    await Promise.all([provider.flush(), other.flush()]);
    expect(await batchPages()).toBe(8);
    expect((await manifest()).slice(1).map((r) => r[0])).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
  });

  it('rebuilds the merged PDF later, once for many letters, and after a restart for a batch left stale', async () => {
    const slow = new PrintBatchProvider(root, 60_000);
    await slow.submit(await letter('a'));
    await slow.submit(await letter('b'));
    await expect(readFile(join(dir(), 'batch.pdf'))).rejects.toThrow(/ENOENT/);
    // The process dies before its refresh; the next one sweeps at start.
    const restarted = new PrintBatchProvider(root, 60_000);
    await restarted.onApplicationBootstrap();
    await restarted.flush();
    await waitForPages(2);
    await restarted.submit(await letter('c'));
    await restarted.onApplicationShutdown();
    expect(await batchPages()).toBe(3);
    await slow.flush();
  });

  async function waitForPages(pages: number): Promise<void> {
    for (let i = 0; i < 100 && (await batchPages().catch(() => 0)) !== pages; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await batchPages()).toBe(pages);
  }
});

describe('csv', () => {
  it('quotes what needs quoting and reads it back', () => {
    const rows = [['a', 'b,c', 'say "hi"', 'two\nlines', '']];
    expect(parseCsv(toCsv(rows))).toEqual(rows);
  });

  it('keeps a spreadsheet from reading a customer’s text as a formula', () => {
    const rows = [['=HYPERLINK("http://evil","click")', '+49 30 1234', '-2+3', '@SUM(A1)', 'Kunde AG', '1']];
    expect(toCsv(rows)).toBe(`"'=HYPERLINK(""http://evil"",""click"")",'+49 30 1234,'-2+3,'@SUM(A1),Kunde AG,1\r\n`);
  });
});
