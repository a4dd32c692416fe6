// Passes upload bytes through while counting, hashing (SHA-256) and looking for the PDF header,
// failing the stream the moment the size passes the limit or the first KiB holds no header. Keeps the
// first and last bytes, where the structure check finds most of what it reads.
import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { notPdf, tooLarge } from './pdf-upload-errors.js';
import { type FileEnds, TAIL_BYTES } from './pdf-xref.js';

const HEADER = Buffer.from('%PDF-');
/** Readers (Acrobat among them) accept the header anywhere in the first KiB. */
const HEADER_WINDOW = 1024;
/** Writers tend to put the page tree's first objects at the start. */
const KEPT_HEAD_BYTES = 8 * 1024;

export class PdfCheck extends Transform {
  size = 0;
  private readonly hash = createHash('sha256');
  private head: Buffer[] = [];
  private headLength = 0;
  private headerChecked = false;
  private readonly first: Buffer[] = [];
  private firstLength = 0;
  private last: Buffer[] = [];
  private lastLength = 0;

  constructor(
    private readonly field: string,
    private readonly maxBytes: number,
  ) {
    super();
  }

  sha256(): string {
    return this.hash.digest('hex');
  }

  /** Once all bytes passed: the first and last of them, copied out of the stream's chunks. */
  ends(): FileEnds {
    return { size: this.size, head: Buffer.concat(this.first, this.firstLength), tail: this.lastBytes() };
  }

  /** The last TAIL_BYTES bytes (or all), copied from the end of the kept chunks. */
  private lastBytes(): Buffer {
    const tail = Buffer.allocUnsafe(Math.min(this.lastLength, TAIL_BYTES));
    let end = tail.length;
    for (let i = this.last.length - 1; end > 0; i--) {
      const chunk = this.last[i];
      const take = Math.min(end, chunk.length);
      chunk.copy(tail, end - take, chunk.length - take);
      end -= take;
    }
    this.last = [];
    return tail;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return done(tooLarge(this.field, this.maxBytes));
    this.hash.update(chunk);
    this.keep(chunk);
    if (!this.headerChecked) {
      this.head.push(chunk);
      this.headLength += chunk.length;
      if (this.headLength >= HEADER_WINDOW + HEADER.length - 1 && !this.hasHeader()) return done(notPdf(this.field));
    }
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    if (!this.headerChecked && !this.hasHeader()) return done(notPdf(this.field));
    done();
  }

  private keep(chunk: Buffer): void {
    if (this.firstLength < KEPT_HEAD_BYTES) {
      const part = chunk.subarray(0, KEPT_HEAD_BYTES - this.firstLength);
      this.first.push(part);
      this.firstLength += part.length;
    }
    this.last.push(chunk);
    this.lastLength += chunk.length;
    while (this.lastLength - this.last[0].length >= TAIL_BYTES) this.lastLength -= this.last.shift()!.length;
  }

  private hasHeader(): boolean {
    this.headerChecked = true;
    const head = Buffer.concat(this.head, this.headLength);
    this.head = [];
    const at = head.subarray(0, HEADER_WINDOW + HEADER.length - 1).indexOf(HEADER);
    return at >= 0 && at < HEADER_WINDOW;
  }
}
