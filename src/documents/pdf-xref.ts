// The objects of a PDF file, found through its cross-reference data (xref tables, xref streams, hybrid
// files, incremental updates with /Prev), reading only the bytes that are needed, in small windows:
// a 20 MB file costs a few KiB of memory. Anything this reader cannot follow is Unreadable; the caller
// then decides by other means (a full parse).
import { type FileHandle, open } from 'node:fs/promises';
import { decodeStream, Unreadable } from './pdf-filters.js';
import { NeedMoreBytes, PdfLexer, PdfRef, PdfSyntaxError, type PdfDict, type PdfValue } from './pdf-syntax.js';
import { ENTRY, type Location, type Section, streamRows, type XrefSource } from './pdf-xref-entries.js';

/**
 * The end of the file is read once and kept: writers put the cross-references (and often the catalog
 * and page tree) last, so most files are checked from this one read.
 */
export const TAIL_BYTES = 64 * 1024;
/** startxref is searched in the last bytes only, as readers do. */
const STARTXREF_WINDOW = 4096;
const FIRST_WINDOW = 2048;
const MAX_WINDOW = 256 * 1024;
/** Compressed xref or object streams beyond this are not read (the full parse decides). */
const MAX_STREAM = 4 * 1024 * 1024;
const MAX_DECODED = 16 * 1024 * 1024;
const MAX_SECTIONS = 100;
/** Bytes read and inflated per file at most: a crafted file cannot make the check expensive. */
const MAX_WORK = 64 * 1024 * 1024;
const MAX_REF_DEPTH = 16;

/** A file's first and last bytes, kept while it was written: reads within them need not open the file. */
export interface FileEnds {
  size: number;
  head: Buffer;
  /** The last min(size, TAIL_BYTES) bytes at least. */
  tail: Buffer;
}

export class PdfXref {
  private readonly sections: Section[] = [];
  private objectStream?: { num: number; data: Buffer; first: number; offsets: Map<number, number> };
  private work = 0;
  private tail?: { start: number; bytes: Buffer };
  private file?: Promise<FileHandle>;
  private size: number;

  private constructor(
    private readonly path: string,
    private readonly ends?: FileEnds,
  ) {
    this.size = ends?.size ?? 0;
  }

  /**
   * Reads the file's cross-reference chain and runs `work` with it. The file is opened when a read
   * needs it (always, without `ends`) and closed after.
   */
  static async with<T>(path: string, work: (xref: PdfXref) => Promise<T>, ends?: FileEnds): Promise<T> {
    const xref = new PdfXref(path, ends);
    try {
      if (!ends) xref.size = (await (await xref.opened()).stat()).size;
      await xref.load();
      return await work(xref);
    } finally {
      await xref.file?.then(
        (file) => file.close(),
        () => undefined,
      );
    }
  }

  private opened(): Promise<FileHandle> {
    return (this.file ??= open(this.path, 'r'));
  }

  get trailer(): PdfDict {
    return this.sections[0].trailer;
  }

  /** The value, with references followed to their objects. */
  async resolve(value: PdfValue | undefined, depth = 0): Promise<PdfValue | undefined> {
    if (!(value instanceof PdfRef)) return value;
    if (depth > MAX_REF_DEPTH) throw new Unreadable('references nest too deeply');
    const location = await this.locate(value.num);
    if (location === undefined || location === 'free') return undefined;
    if ('offset' in location) return this.resolve((await this.indirect(location.offset, value.num)).value, depth + 1);
    return this.resolve(await this.compressed(location.stream, location.index, value.num), depth + 1);
  }

  private async load(): Promise<void> {
    const tailStart = Math.max(0, this.size - TAIL_BYTES);
    this.tail = { start: tailStart, bytes: await this.read(tailStart, this.size - tailStart) };
    const end = this.tail.bytes.subarray(Math.max(0, this.tail.bytes.length - STARTXREF_WINDOW));
    const at = end.lastIndexOf('startxref');
    if (at < 0) throw new Unreadable('no startxref');
    let offset: number | undefined = new PdfLexer(end, at + 'startxref'.length, true).integer();
    const seen = new Set<number>();
    while (offset !== undefined) {
      if (seen.has(offset) || seen.size >= MAX_SECTIONS) throw new Unreadable('the /Prev chain loops');
      seen.add(offset);
      const section = await this.section(offset);
      this.sections.push(section);
      const prev = section.trailer.get('Prev');
      offset = typeof prev === 'number' ? prev : undefined;
    }
  }

  private async section(offset: number): Promise<Section> {
    const isTable = await this.at(offset, (lexer) => lexer.keyword() === 'xref');
    if (!isTable) {
      const stream = await this.xrefStream(offset);
      return { entries: [stream], trailer: stream.dict };
    }
    const { table, trailer } = await this.xrefTable(offset);
    const hybrid = trailer.get('XRefStm');
    // A hybrid file: the stream holds the objects that readers of the table alone never see.
    return { entries: typeof hybrid === 'number' ? [table, await this.xrefStream(hybrid)] : [table], trailer };
  }

  /** A classic table: subsections of fixed 20-byte entries, read one entry at a time when asked. */
  private async xrefTable(offset: number): Promise<{ table: XrefSource; trailer: PdfDict }> {
    const subsections: Array<{ start: number; count: number; at: number }> = [];
    let cursor = offset + (await this.at(offset, (lexer) => (lexer.keyword(), lexer.pos)));
    for (;;) {
      const step = await this.at(cursor, (lexer) => {
        lexer.skipWhitespace();
        if (lexer.bytes.toString('latin1', lexer.pos, lexer.pos + 7) === 'trailer') {
          lexer.pos += 7;
          return { trailer: lexer.object() };
        }
        const start = lexer.integer();
        const count = lexer.integer();
        if (count > 0) {
          lexer.skipWhitespace();
          if (lexer.pos + 20 > lexer.bytes.length) throw new NeedMoreBytes();
          if (!ENTRY.test(lexer.bytes.toString('latin1', lexer.pos, lexer.pos + 20))) throw new Unreadable('not a 20-byte xref entry');
        }
        return { start, count, at: lexer.pos };
      });
      if ('trailer' in step) {
        if (!(step.trailer instanceof Map)) throw new Unreadable('the trailer is not a dictionary');
        return { table: { find: (num) => this.tableEntry(subsections, num) }, trailer: step.trailer };
      }
      subsections.push({ start: step.start, count: step.count, at: cursor + step.at });
      cursor += step.at + 20 * step.count;
    }
  }

  private async tableEntry(subsections: Array<{ start: number; count: number; at: number }>, num: number): Promise<Location> {
    const subsection = subsections.find((s) => num >= s.start && num < s.start + s.count);
    if (!subsection) return undefined;
    const match = ENTRY.exec((await this.read(subsection.at + 20 * (num - subsection.start), 20)).toString('latin1'));
    if (!match) throw new Unreadable('not a 20-byte xref entry');
    return match[3] === 'n' ? { offset: Number(match[1]) } : 'free';
  }

  /** A cross-reference stream (PDF 1.5): its decoded rows are kept, a few bytes per object. */
  private async xrefStream(offset: number): Promise<XrefSource & { dict: PdfDict }> {
    const { dict, data } = await this.stream(offset);
    return { dict, find: streamRows(dict, data) };
  }

  private async locate(num: number): Promise<Location> {
    for (const section of this.sections) {
      for (const source of section.entries) {
        const location = await source.find(num);
        if (location !== undefined) return location;
      }
    }
    return undefined;
  }

  /** `num gen obj <value>` at an offset; the header must name the object asked for. */
  private async indirect(offset: number, num?: number): Promise<{ value: PdfValue; dataStart?: number }> {
    return this.at(offset, (lexer) => {
      const found = lexer.integer();
      lexer.integer();
      if (lexer.keyword() !== 'obj' || (num !== undefined && found !== num)) throw new Unreadable(`no object ${num} at ${offset}`);
      const value = lexer.object();
      if (!(value instanceof Map) || lexer.keyword() !== 'stream') return { value };
      // The data starts after the end of line that follows `stream` (CRLF or LF).
      if (lexer.pos + 2 > lexer.bytes.length) throw new NeedMoreBytes();
      if (lexer.bytes[lexer.pos] === 0x0d) lexer.pos++;
      if (lexer.bytes[lexer.pos] === 0x0a) lexer.pos++;
      return { value, dataStart: lexer.pos };
    });
  }

  /** A stream object's dictionary and decoded data (FlateDecode with or without PNG predictors). */
  private async stream(offset: number, num?: number): Promise<{ dict: PdfDict; data: Buffer }> {
    const { value, dataStart } = await this.indirect(offset, num);
    if (!(value instanceof Map) || dataStart === undefined) throw new Unreadable('not a stream');
    const length = await this.resolve(value.get('Length'));
    if (typeof length !== 'number' || length < 0 || length > MAX_STREAM) throw new Unreadable('stream length unknown or too large');
    const data = decodeStream(value, await this.read(offset + dataStart, length), MAX_DECODED);
    this.spend(data.length);
    return { dict: value, data };
  }

  private async compressed(streamNum: number, index: number, num: number): Promise<PdfValue> {
    if (this.objectStream?.num !== streamNum) {
      const location = await this.locate(streamNum);
      if (!location || location === 'free' || !('offset' in location)) throw new Unreadable('object stream not found');
      const { dict, data } = await this.stream(location.offset, streamNum);
      const first = dict.get('First');
      const count = dict.get('N');
      if (typeof first !== 'number' || typeof count !== 'number') throw new Unreadable('bad object stream');
      const header = new PdfLexer(data.subarray(0, first), 0, true);
      const offsets = new Map<number, number>();
      for (let i = 0; i < count; i++) offsets.set(header.integer(), header.integer());
      this.objectStream = { num: streamNum, data, first, offsets };
    }
    const at = this.objectStream.offsets.get(num);
    if (at === undefined) throw new Unreadable(`object ${num} is not in object stream ${streamNum} (index ${index})`);
    return new PdfLexer(this.objectStream.data, this.objectStream.first + at, true).object();
  }

  /** Parses from a window at `offset`, widening it while the parse runs off its end. */
  private async at<T>(offset: number, parse: (lexer: PdfLexer) => T): Promise<T> {
    for (let window = FIRST_WINDOW; ; window *= 2) {
      const length = Math.min(window, this.size - offset);
      const bytes = await this.read(offset, length);
      try {
        return parse(new PdfLexer(bytes, 0, offset + length >= this.size));
      } catch (error) {
        if (!(error instanceof NeedMoreBytes) || offset + length >= this.size || window >= MAX_WINDOW) throw asUnreadable(error);
      }
    }
  }

  private spend(bytes: number): void {
    this.work += bytes;
    if (this.work > MAX_WORK) throw new Unreadable('the structure takes too much reading');
  }

  private async read(offset: number, length: number): Promise<Buffer> {
    if (!Number.isInteger(offset) || offset < 0 || offset + length > this.size)
      throw new Unreadable(`offset ${offset} is outside the file`);
    this.spend(length);
    if (this.tail && offset >= this.tail.start)
      return this.tail.bytes.subarray(offset - this.tail.start, offset - this.tail.start + length);
    const kept = this.kept(offset, length);
    if (kept) return kept;
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await (await this.opened()).read(buffer, 0, length, offset);
    return bytesRead === length ? buffer : buffer.subarray(0, bytesRead);
  }

  /** The range from the bytes kept in memory, when they hold all of it. */
  private kept(offset: number, length: number): Buffer | undefined {
    if (!this.ends) return undefined;
    const { head, tail, size } = this.ends;
    if (offset + length <= head.length) return head.subarray(offset, offset + length);
    const tailStart = size - tail.length;
    return offset >= tailStart ? tail.subarray(offset - tailStart, offset - tailStart + length) : undefined;
  }
}

function asUnreadable(error: unknown): Error {
  if (error instanceof Unreadable) return error;
  return new Unreadable(error instanceof PdfSyntaxError ? error.message : 'the object does not end within the window');
}
