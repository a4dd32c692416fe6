// Passes upload bytes through while counting, hashing (SHA-256) and looking for the PDF header,
// failing the stream the moment the size passes the limit or the first KiB holds no header.
import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { notPdf, tooLarge } from './pdf-upload-errors.js';

const HEADER = Buffer.from('%PDF-');
/** Readers (Acrobat among them) accept the header anywhere in the first KiB. */
const HEADER_WINDOW = 1024;

export class PdfCheck extends Transform {
  size = 0;
  private readonly hash = createHash('sha256');
  private head: Buffer[] = [];
  private headLength = 0;
  private headerChecked = false;

  constructor(
    private readonly field: string,
    private readonly maxBytes: number,
  ) {
    super();
  }

  sha256(): string {
    return this.hash.digest('hex');
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return done(tooLarge(this.field, this.maxBytes));
    this.hash.update(chunk);
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

  private hasHeader(): boolean {
    this.headerChecked = true;
    const head = Buffer.concat(this.head, this.headLength);
    this.head = [];
    const at = head.subarray(0, HEADER_WINDOW + HEADER.length - 1).indexOf(HEADER);
    return at >= 0 && at < HEADER_WINDOW;
  }
}
