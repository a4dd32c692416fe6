// The default postal provider, for companies that print and post themselves. Each day's letters of a
// company go into `<PRINT_BATCH_DIR>/<company id>/<YYYY-MM-DD>/`: the single letters under `letters/`,
// `manifest.csv` (one row per letter: position in the batch, reference, recipient, pages) and the merged
// `batch.pdf` to print in one go.
//
// A submitted letter is durable at once (its file, then its manifest row: the manifest is the record).
// The merged PDF is derived from the manifest and rebuilt a little later (PRINT_BATCH_REFRESH_SECONDS
// after the last letter, on shutdown, and for any stale batch when the process starts), because
// rewriting it for every letter would cost time growing with the batch. A lock file serialises writers
// of a batch, also across processes sharing the folder.
import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { loadPdf } from '../../documents/pdf-load.js';
import { parseCsv, toCsv } from './csv.js';
import { type PostalLetter, PostalProvider, type PostalReceipt } from './postal-provider.js';

const HEADER = ['sequence', 'first_page', 'pages', 'reference', 'description', 'recipient', 'submitted_at'];
const LOCK_STALE_MS = 120_000;

interface ManifestRow {
  sequence: number;
  firstPage: number;
  pages: number;
  reference: string;
  description: string;
  recipient: string;
  submittedAt: string;
}

export class PrintBatchProvider extends PostalProvider implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly name = 'print_batch';
  private readonly logger = new Logger(PrintBatchProvider.name);
  private readonly inProcess = new Map<string, Promise<unknown>>();
  private readonly pendingRefresh = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly root: string,
    private readonly refreshDelayMs = 30_000,
  ) {
    super();
  }

  async submit(letter: PostalLetter): Promise<PostalReceipt> {
    const dir = this.batchDir(letter.companyId, letter.day);
    const receipt = await this.serialised(dir, async () => {
      const manifest = await readManifest(dir);
      const existing = manifest.find((row) => row.reference === letter.reference);
      if (existing) return this.receipt(letter, existing);
      const row: ManifestRow = {
        sequence: manifest.length + 1,
        firstPage: manifest.reduce((sum, r) => sum + r.pages, 0) + 1,
        pages: letter.pages,
        reference: letter.reference,
        description: letter.description,
        recipient: letter.recipient.join(', '),
        submittedAt: new Date().toISOString(),
      };
      await writeAtomically(join(dir, letterFile(row)), letter.pdf);
      await writeAtomically(join(dir, 'manifest.csv'), toCsv([HEADER, ...[...manifest, row].map(toFields)]));
      return this.receipt(letter, row);
    });
    this.scheduleRefresh(dir);
    return receipt;
  }

  batchDir(companyId: string, day: string): string {
    return join(this.root, safe(companyId), safe(day));
  }

  /** Rebuilds the batch's merged PDF from its manifest, when it is missing or older than the manifest. */
  async refresh(dir: string): Promise<void> {
    await this.serialised(dir, async () => {
      const [manifestTime, batchTime] = await Promise.all([mtime(join(dir, 'manifest.csv')), mtime(join(dir, 'batch.pdf'))]);
      if (manifestTime === null || (batchTime !== null && batchTime > manifestTime)) return;
      const batch = await PDFDocument.create();
      for (const row of await readManifest(dir)) {
        const source = await loadPdf(await readFile(join(dir, letterFile(row))), 'a letter of the print batch');
        for (const page of await batch.copyPages(source, source.getPageIndices())) batch.addPage(page);
      }
      await writeAtomically(join(dir, 'batch.pdf'), await batch.save());
    });
  }

  /** Runs every scheduled refresh now and waits for the batch writes under way (shutdown, tests, the bench). */
  async flush(): Promise<void> {
    const dirs = [...this.pendingRefresh.keys()];
    for (const timer of this.pendingRefresh.values()) clearTimeout(timer);
    this.pendingRefresh.clear();
    await Promise.all([...this.inProcess.values()].map((work) => work.catch(() => undefined)));
    for (const dir of dirs) await this.refresh(dir);
  }

  /** A process that died before its refresh left a stale batch: every batch is checked at start. */
  onApplicationBootstrap(): Promise<void> {
    void this.refreshAll().catch((error: unknown) => this.logger.error({ err: error }, 'print batch sweep failed'));
    return Promise.resolve();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  private async refreshAll(): Promise<void> {
    for (const company of await readdir(this.root).catch(() => [] as string[])) {
      for (const day of await readdir(join(this.root, company)).catch(() => [] as string[]))
        await this.refresh(join(this.root, company, day));
    }
  }

  private scheduleRefresh(dir: string): void {
    clearTimeout(this.pendingRefresh.get(dir));
    const timer = setTimeout(() => {
      this.pendingRefresh.delete(dir);
      this.refresh(dir).catch((error: unknown) => this.logger.error({ err: error, dir }, 'print batch refresh failed'));
    }, this.refreshDelayMs);
    timer.unref();
    this.pendingRefresh.set(dir, timer);
  }

  private receipt(letter: PostalLetter, row: ManifestRow): PostalReceipt {
    return { provider: this.name, providerId: `${letter.day}/${row.sequence}` };
  }

  /** One writer per batch folder: in this process by a promise chain, across processes by a lock file. */
  private async serialised<T>(dir: string, work: () => Promise<T>): Promise<T> {
    const previous = this.inProcess.get(dir) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => withLockFile(dir, work));
    this.inProcess.set(dir, run);
    try {
      return await run;
    } finally {
      if (this.inProcess.get(dir) === run) this.inProcess.delete(dir);
    }
  }
}

async function readManifest(dir: string): Promise<ManifestRow[]> {
  const text = await readFile(join(dir, 'manifest.csv'), 'utf8').catch(() => '');
  return parseCsv(text)
    .slice(1)
    .map(([sequence, firstPage, pages, reference, description, recipient, submittedAt]) => ({
      sequence: Number(sequence),
      firstPage: Number(firstPage),
      pages: Number(pages),
      reference,
      description,
      recipient,
      submittedAt,
    }));
}

function toFields(row: ManifestRow): string[] {
  return [String(row.sequence), String(row.firstPage), String(row.pages), row.reference, row.description, row.recipient, row.submittedAt];
}

function letterFile(row: Pick<ManifestRow, 'sequence' | 'reference'>): string {
  return join('letters', `${String(row.sequence).padStart(4, '0')}-${safe(row.reference)}.pdf`);
}

function safe(part: string): string {
  return part.replace(/[^\w.-]+/g, '_');
}

async function mtime(path: string): Promise<number | null> {
  return stat(path).then(
    (s) => s.mtimeMs,
    () => null,
  );
}

/** Temp file, fsync, rename, fsync of the folder: after a crash the old file or the new one, never half of it. */
async function writeAtomically(path: string, data: Uint8Array | string): Promise<void> {
  const folder = dirname(path);
  await mkdir(folder, { recursive: true });
  const temp = join(folder, `.${basename(path)}.${randomUUID()}.tmp`);
  const file = await open(temp, 'w', 0o640);
  try {
    await file.writeFile(data);
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(temp, path);
  const dir = await open(folder, 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

async function withLockFile<T>(dir: string, work: () => Promise<T>): Promise<T> {
  await mkdir(dir, { recursive: true });
  const lock = join(dir, '.lock');
  for (let waited = 0; ; waited += 50) {
    try {
      await (await open(lock, 'wx')).close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock older than any batch write was left by a process that died.
      const age = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > LOCK_STALE_MS) await rm(lock, { force: true });
      else if (waited > LOCK_STALE_MS) throw new Error(`print batch ${dir} stays locked`, { cause: error });
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}
