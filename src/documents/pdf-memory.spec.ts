// How much memory the PDF check of a 20 MB upload holds, measured: the growth of ArrayBuffer memory
// (where file bytes live) from a collected baseline to its peak, sampled while the check runs and
// right after it, while nothing of it has been collected yet. A control shows the measurement sees a
// copy of the file when there is one.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PDFDocument } from 'pdf-lib';
import { makePdf } from '../../test/support/pdf.js';
import { assertRealPdf } from './pdf-upload.js';

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

const MIB = 1024 * 1024;
const SIZE = 20 * MIB;

/** Peak growth of ArrayBuffer memory while `work` runs; what it returns is kept alive until measured. */
async function arrayBufferGrowth(work: () => Promise<unknown>): Promise<number> {
  gc();
  gc();
  const base = process.memoryUsage().arrayBuffers;
  let peak = base;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().arrayBuffers);
  };
  const timer = setInterval(sample, 0);
  try {
    const result = await work();
    sample();
    void result;
  } finally {
    clearInterval(timer);
  }
  return peak - base;
}

describe('memory of the PDF check of a 20 MB upload', () => {
  let dir: string;
  let wellFormed: string;
  let damaged: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pdf-memory-'));
    // An image-heavy invoice: 20 MB of incompressible stream data.
    const bytes = await makePdf('Rechnung', SIZE - 8 * 1024);
    wellFormed = join(dir, 'well-formed.pdf');
    await writeFile(wellFormed, bytes);
    // The same file with a wrong startxref: readers repair it by a scan, so the check falls back to the full parse.
    damaged = join(dir, 'damaged.pdf');
    const tail = bytes
      .subarray(bytes.length - 64)
      .toString('latin1')
      .replace(/startxref\s+\d+/, 'startxref\n9');
    await writeFile(damaged, Buffer.concat([bytes.subarray(0, bytes.length - 64), Buffer.from(tail, 'latin1')]));
  }, 60_000);
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('a well-formed file: judged by bounded reads, well under 1 MiB whatever its size', async () => {
    const growth = await arrayBufferGrowth(() => assertRealPdf(wellFormed));
    expect(growth).toBeLessThan(MIB);
  });

  it('a file only a full parse can judge: held once (the file), its streams not copied', async () => {
    const growth = await arrayBufferGrowth(() => assertRealPdf(damaged));
    expect(growth).toBeGreaterThan(0.9 * SIZE);
    expect(growth).toBeLessThan(1.25 * SIZE);
  });

  it('control: the measurement sees pdf-lib copying every stream when its input is a plain Uint8Array', async () => {
    const growth = await arrayBufferGrowth(async () => {
      const file = await readFile(damaged);
      return PDFDocument.load(new Uint8Array(file.buffer, file.byteOffset, file.length), { ignoreEncryption: true, updateMetadata: false });
    });
    expect(growth).toBeGreaterThan(1.8 * SIZE);
  });
});
