// Issue 4: rendering reminder letters (DIN 5008, pdf-lib) as the delivery worker does, 1,000 of them,
// in a child process of its own so that the peak RSS is the renderer's; then the same letters handed to
// the default postal provider (one merged print-batch PDF per day plus its CSV manifest).
import { execFileSync, fork } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchContext, Scenario, ScenarioReport } from '../scenario.js';
import type { LettersResult } from './letters.child.js';

const LETTERS = 1000;
/** Letters handed to the print-batch provider, then its merged PDF rebuilt once (as after the refresh delay). */
const BATCH_LETTERS = 1000;
/** The first letters of each level and of a letter abroad, kept as PDF (and PNG of page 1 where pdftoppm exists) to look at. */
const SAMPLES_DIR = resolve('bench/results/letters');

function runChild(ctx: BenchContext): Promise<LettersResult> {
  return new Promise((resolve, reject) => {
    const child = fork(
      fileURLToPath(new URL('./letters.child.js', import.meta.url)),
      [JSON.stringify({ letters: LETTERS, batchLetters: BATCH_LETTERS, samplesDir: SAMPLES_DIR })],
      {
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      },
    );
    let result: LettersResult | undefined;
    child.on('message', (message: LettersResult) => (result = message));
    child.once('error', reject);
    child.once('exit', (code) => (result ? resolve(result) : reject(new Error(`letters child exited (${code}) without a result`))));
    ctx.log(`letters: rendering ${LETTERS} reminder letters, then ${BATCH_LETTERS} into one print batch`);
  });
}

export const lettersScenario: Scenario = {
  name: 'letters',
  summary: `render ${LETTERS} DIN 5008 reminder letters (pdf-lib): letters/s and peak RSS; then a print batch of ${BATCH_LETTERS}`,
  async run(ctx: BenchContext): Promise<ScenarioReport> {
    const r = await runChild(ctx);
    const pngs = samplePngs(r.samples);
    const perSec = Math.round((r.letters / r.renderMs) * 1000);
    const batchPerSec = Math.round((r.batchLetters / r.batchMs) * 1000);
    return {
      table: {
        columns: ['phase', 'letters', 'seconds', 'letters/s', 'ms/letter', 'CPU ms/letter', 'peak RSS MB'],
        rows: [
          [
            'render (content + layout + save)',
            r.letters,
            (r.renderMs / 1000).toFixed(2),
            perSec,
            (r.renderMs / r.letters).toFixed(2),
            (r.renderCpuMs / r.letters).toFixed(2),
            r.renderPeakRssMb,
          ],
          [
            'print batch (submit + one merge)',
            r.batchLetters,
            (r.batchMs / 1000).toFixed(2),
            batchPerSec,
            (r.batchMs / r.batchLetters).toFixed(2),
            (r.batchCpuMs / r.batchLetters).toFixed(2),
            r.batchPeakRssMb,
          ],
        ],
      },
      notes: [
        `One process, one letter at a time (as one delivery worker does); ${Math.round(r.bytes / r.letters)} B per letter on average (DejaVu Sans, a subset of its glyphs embedded in each letter; one in six addressed in Polish).`,
        'Print batch: each letter durable at once (its file and manifest row, written atomically), then the merged batch.pdf rebuilt once.',
        `Sample letters: ${r.samples.join(', ')}${pngs ? '; their first pages as PNG beside them' : ' (install pdftoppm, poppler-utils, for PNGs of their first pages)'}.`,
        `CPU ms/letter is the child's own CPU time: on a busy machine letters/s falls, this does not (render at full speed: ${Math.round(1000 / (r.renderCpuMs / r.letters))} letters/s per core).`,
      ],
      targets: [],
      figures: { ...r, lettersPerSec: perSec, batchLettersPerSec: batchPerSec, avgBytes: Math.round(r.bytes / r.letters) },
    };
  },
};

/** First page of each sample as PNG (150 dpi); false when pdftoppm is not installed. */
function samplePngs(pdfs: string[]): boolean {
  try {
    for (const pdf of pdfs)
      execFileSync('pdftoppm', ['-png', '-r', '150', '-f', '1', '-l', '1', '-singlefile', pdf, pdf.replace(/\.pdf$/, '')]);
    return true;
  } catch {
    return false;
  }
}
