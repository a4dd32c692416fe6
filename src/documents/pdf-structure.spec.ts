// The bounded structure check against PDFs of every cross-reference form (pdf-lib's, and files built
// here byte by byte: tables with CRLF and comments, xref streams with PNG predictors, incremental
// updates), and the files it leaves to the full parse: damaged offsets, no pages, not a PDF.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { makePdf } from '../../test/support/pdf.js';
import { checkPdfStructure } from './pdf-structure.js';
import { assertRealPdf } from './pdf-upload.js';

const CATALOG = '<< /Type /Catalog /Pages 2 0 R >>';
const PAGES = '<< /Type /Pages /Kids [3 0 R] /Count 1 >>';
const PAGE = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>';

interface Built {
  bytes: Buffer;
  /** Where the last cross-reference section starts (for /Prev of an update). */
  xrefAt: number;
}

/** A PDF from object bodies (object i + 1 is bodies[i]) with a classic xref table or an xref stream. */
function build(bodies: string[], xref: 'table' | 'stream' | 'png-stream' = 'table', eol = '\n'): Built {
  let text = `%PDF-1.7${eol}%\u00e2\u00e3\u00cf\u00d3${eol}`;
  const offsets: number[] = [];
  bodies.forEach((body, i) => {
    offsets.push(Buffer.byteLength(text, 'latin1'));
    text += `${i + 1} 0 obj${eol}${body}${eol}endobj${eol}`;
  });
  const xrefAt = Buffer.byteLength(text, 'latin1');
  if (xref === 'table') {
    const entries = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n${eol === '\n' ? ' \n' : '\r\n'}`).join('');
    text += `xref${eol}% a comment${eol}0 ${bodies.length + 1}${eol}0000000000 65535 f${eol === '\n' ? ' \n' : '\r\n'}${entries}`;
    text += `trailer${eol}<< /Size ${bodies.length + 1} /Root 1 0 R >>${eol}startxref${eol}${xrefAt}${eol}%%EOF${eol}`;
    return { bytes: Buffer.from(text, 'latin1'), xrefAt };
  }
  const own = bodies.length + 1;
  const rows = [[0, 0, 65535], ...offsets.map((offset) => [1, offset, 0]), [1, xrefAt, 0]].map(([type, field, gen]) => {
    const row = Buffer.alloc(7);
    row.writeUInt8(type, 0);
    row.writeUInt32BE(field, 1);
    row.writeUInt16BE(gen, 5);
    return row;
  });
  const png = xref === 'png-stream';
  // PNG "Up" rows: each byte minus the one above it.
  const raw = png
    ? Buffer.concat(
        rows.map((row, r) =>
          Buffer.concat([Buffer.from([2]), Buffer.from(row.map((byte, c) => (byte - (r ? rows[r - 1][c] : 0)) & 0xff))]),
        ),
      )
    : Buffer.concat(rows);
  const data = deflateSync(raw);
  const parms = png ? ' /DecodeParms << /Predictor 12 /Columns 7 >>' : '';
  const head = `${own} 0 obj${eol}<< /Type /XRef /Size ${own + 1} /W [1 4 2] /Root 1 0 R /Filter /FlateDecode${parms} /Length ${data.length} >>${eol}stream${eol}`;
  const tail = `${eol}endstream${eol}endobj${eol}startxref${eol}${xrefAt}${eol}%%EOF${eol}`;
  return { bytes: Buffer.concat([Buffer.from(text + head, 'latin1'), data, Buffer.from(tail, 'latin1')]), xrefAt };
}

/** An incremental update: objects appended after the file, with a new xref section and /Prev. */
function update(base: Built, objects: Record<number, string>, size: number, root = '1 0 R'): Buffer {
  let text = '';
  const at = base.bytes.length;
  const entries: string[] = [];
  for (const [num, body] of Object.entries(objects)) {
    entries.push(`${num} 1\n${String(at + Buffer.byteLength(text, 'latin1')).padStart(10, '0')} 00000 n \n`);
    text += `${num} 0 obj\n${body}\nendobj\n`;
  }
  const xrefAt = at + Buffer.byteLength(text, 'latin1');
  text += `xref\n${entries.join('')}trailer\n<< /Size ${size} /Root ${root} /Prev ${base.xrefAt} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.concat([base.bytes, Buffer.from(text, 'latin1')]);
}

function loopingPrev(): Buffer {
  const { bytes, xrefAt } = build([CATALOG, PAGES, PAGE]);
  // The trailer comes after every offset, so they all stay right; it now names its own section.
  return Buffer.from(bytes.toString('latin1').replace('/Root 1 0 R >>', `/Root 1 0 R /Prev ${xrefAt} >>`), 'latin1');
}

describe(checkPdfStructure.name, () => {
  let dir: string;
  let n = 0;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pdf-structure-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  async function fileOf(bytes: Buffer | Uint8Array): Promise<string> {
    const path = join(dir, `f${++n}.pdf`);
    await writeFile(path, bytes);
    return path;
  }
  /** The file's ends as an upload keeps them (PdfCheck), or only `tail` bytes of its end. */
  const endsOf = (bytes: Buffer, head = 8 * 1024, tail = 64 * 1024) => ({
    size: bytes.length,
    head: bytes.subarray(0, head),
    tail: bytes.subarray(Math.max(0, bytes.length - tail)),
  });
  /** The check from the file alone, which must give the same answer from bytes kept in memory. */
  const check = async (data: Buffer | Uint8Array) => {
    const bytes = Buffer.from(data);
    const path = await fileOf(bytes);
    const answer = await checkPdfStructure(path);
    expect(await checkPdfStructure(path, endsOf(bytes))).toBe(answer);
    expect(await checkPdfStructure(path, endsOf(bytes, 0, 64 * 1024))).toBe(answer);
    return answer;
  };
  const fullParseAccepts = async (bytes: Buffer | Uint8Array) =>
    assertRealPdf(await fileOf(bytes)).then(
      () => true,
      () => false,
    );

  it.each([
    ['pdf-lib with object streams and an xref stream', () => makePdf('Rechnung')],
    [
      'pdf-lib with a classic xref table',
      async () => Buffer.from(await (await PDFDocument.load(await makePdf('Rechnung'))).save({ useObjectStreams: false })),
    ],
    ['a table with LF entries', () => build([CATALOG, PAGES, PAGE]).bytes],
    ['a table with CRLF line ends', () => build([CATALOG, PAGES, PAGE], 'table', '\r\n').bytes],
    ['an xref stream', () => build([CATALOG, PAGES, PAGE], 'stream').bytes],
    ['an xref stream with PNG Up predictors', () => build([CATALOG, PAGES, PAGE], 'png-stream').bytes],
    [
      'a two-level page tree, names with #-escapes, an indirect /Count',
      () =>
        build([
          '<< /Type /Catalog /Pages 2 0 R /Lang (de\\)\\(DE) /Metadata#20Name /x#41 >>',
          '<< /Type /Pages /Kids [4 0 R] /Count 5 0 R >>',
          '<< /Type /Page /Parent 4 0 R >>',
          '<< /Type /Pages /Parent 2 0 R /Kids [3 0 R] /Count 1 >>',
          '1',
        ]).bytes,
    ],
    [
      'an incremental update replacing the page tree',
      () => update(build([CATALOG, PAGES, PAGE]), { 2: '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>', 4: PAGE }, 5),
    ],
    ['bytes after %%EOF', () => Buffer.concat([build([CATALOG, PAGES, PAGE]).bytes, Buffer.alloc(1000, 0x0a)])],
  ])('follows %s to its pages', async (_name, make) => {
    expect(await check(await make())).toBe('valid');
  });

  it('needs no file when the kept bytes hold every read', async () => {
    const bytes = await makePdf('Rechnung');
    expect(await checkPdfStructure(join(dir, 'never-written.pdf'), endsOf(bytes))).toBe('valid');
    expect(await checkPdfStructure(join(dir, 'never-written.pdf'), endsOf(bytes, 0, 100))).toBe('undecided');
  });

  it('leaves damaged cross-references to the full parse, which still accepts a readable file', async () => {
    const good = build([CATALOG, PAGES, PAGE]).bytes;
    const text = good.toString('latin1');
    const wrongOffset = Buffer.from(text.replace(/startxref\n\d+/, 'startxref\n9'), 'latin1');
    const noStartxref = Buffer.from(text.replace('startxref', 'startxrex'), 'latin1');
    const shiftedObjects = Buffer.from(text.replace('%PDF-1.7\n', '%PDF-1.7\n%% ten more\n'), 'latin1');
    for (const damaged of [wrongOffset, noStartxref, shiftedObjects]) {
      expect(await check(damaged)).toBe('undecided');
      expect(await fullParseAccepts(damaged)).toBe(true);
    }
  });

  it.each([
    ['no page in the tree', build([CATALOG, '<< /Type /Pages /Kids [] /Count 0 >>']).bytes],
    ['a page tree that contains itself', build([CATALOG, '<< /Type /Pages /Kids [2 0 R] /Count 1 >>']).bytes],
    ['a root that is not a catalog', build(['<< /Type /Page >>', PAGES, PAGE]).bytes],
    ['an update whose root is missing', update(build([CATALOG, PAGES, PAGE]), { 4: '<< /Foo 1 >>' }, 5, '9 0 R')],
    ['a /Prev chain that loops', loopingPrev()],
    [
      'a /Prev outside the file',
      Buffer.from(build([CATALOG, PAGES, PAGE]).bytes.toString('latin1').replace('/Root 1 0 R', '/Root 1 0 R /Prev 99999'), 'latin1'),
    ],
    ['plain text', Buffer.from('%PDF-1.4\nnot really a PDF\n%%EOF\n')],
    ['the first half of a PDF', build([CATALOG, PAGES, PAGE]).bytes.subarray(0, 200)],
    ['nothing', Buffer.alloc(0)],
  ])('does not vouch for %s', async (_name, bytes) => {
    expect(await check(bytes)).toBe('undecided');
  });

  it('the full parse refuses what has no pages or is no PDF', async () => {
    expect(await fullParseAccepts(build([CATALOG, '<< /Type /Pages /Kids [] /Count 0 >>']).bytes)).toBe(false);
    expect(await fullParseAccepts(Buffer.from('%PDF-1.4\nnot really a PDF\n%%EOF\n'))).toBe(false);
  });
});
