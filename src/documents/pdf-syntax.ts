// The object syntax of PDF (ISO 32000-1, 7.2-7.3), enough to read cross-reference sections, trailers
// and dictionaries from a window of a file: numbers, names, strings, arrays, dictionaries, references
// and keywords. Running off the end of the window throws NeedMoreBytes, so the caller can read more.

export class PdfName {
  constructor(readonly name: string) {}
}

export class PdfRef {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}

export class PdfKeyword {
  constructor(readonly word: string) {}
}

export type PdfDict = Map<string, PdfValue>;
export type PdfValue = number | boolean | null | string | PdfName | PdfRef | PdfValue[] | PdfDict;

/** The window ended inside a token or an object: read a larger one. */
export class NeedMoreBytes extends Error {}
/** Not PDF syntax. */
export class PdfSyntaxError extends Error {}

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;
const INTEGER = /^\d+$/;
/** Nesting deeper than this is no cross-reference or catalog data; it stops hostile input early. */
const MAX_DEPTH = 32;

export const isWhitespace = (byte: number): boolean => WHITESPACE.has(byte);

export class PdfLexer {
  constructor(
    readonly bytes: Buffer,
    public pos = 0,
    /** Whether `bytes` ends where the file ends (then the end is final, not a window edge). */
    private readonly atEndOfFile = false,
  ) {}

  private peek(): number {
    if (this.pos >= this.bytes.length) throw this.atEndOfFile ? new PdfSyntaxError('unexpected end of file') : new NeedMoreBytes();
    return this.bytes[this.pos];
  }

  skipWhitespace(): void {
    for (;;) {
      const byte = this.peek();
      if (WHITESPACE.has(byte)) this.pos++;
      else if (byte === 0x25) while (this.peek() !== 0x0a && this.peek() !== 0x0d) this.pos++;
      else return;
    }
  }

  /** A run of regular characters (a number, keyword or the rest of a name). */
  private regular(): string {
    const start = this.pos;
    while (this.pos < this.bytes.length && !WHITESPACE.has(this.bytes[this.pos]) && !DELIMITERS.has(this.bytes[this.pos])) this.pos++;
    if (this.pos >= this.bytes.length && !this.atEndOfFile) throw new NeedMoreBytes();
    return this.bytes.toString('latin1', start, this.pos);
  }

  /** The next object; `N G R` comes back as a PdfRef, keywords (obj, stream, trailer, ...) as PdfKeyword. */
  value(depth = 0): PdfValue | PdfKeyword {
    if (depth > MAX_DEPTH) throw new PdfSyntaxError('nested too deeply');
    this.skipWhitespace();
    const byte = this.peek();
    if (byte === 0x2f) {
      this.pos++;
      return new PdfName(this.regular().replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))));
    }
    if (byte === 0x3c && this.bytes[this.pos + 1] === 0x3c) return this.dict(depth);
    if (byte === 0x3c) return this.hexString();
    if (byte === 0x28) return this.literalString();
    if (byte === 0x5b) return this.array(depth);
    if (DELIMITERS.has(byte)) throw new PdfSyntaxError(`unexpected "${String.fromCharCode(byte)}"`);
    const word = this.regular();
    if (INTEGER.test(word)) return this.maybeRef(Number(word));
    if (NUMBER.test(word)) return Number(word);
    if (word === 'true' || word === 'false') return word === 'true';
    if (word === 'null') return null;
    return new PdfKeyword(word);
  }

  /** An object (never a bare keyword other than the ones allowed here). */
  object(depth = 0): PdfValue {
    const value = this.value(depth);
    if (value instanceof PdfKeyword) throw new PdfSyntaxError(`unexpected keyword "${value.word}"`);
    return value;
  }

  keyword(): string | undefined {
    const at = this.pos;
    const value = this.value();
    if (value instanceof PdfKeyword) return value.word;
    this.pos = at;
    return undefined;
  }

  integer(): number {
    this.skipWhitespace();
    const word = this.regular();
    if (!INTEGER.test(word)) throw new PdfSyntaxError(`expected an integer, found "${word.slice(0, 20)}"`);
    return Number(word);
  }

  /** `12 0 R` is a reference; `12 0` followed by anything else is two numbers. */
  private maybeRef(first: number): PdfValue {
    const at = this.pos;
    this.skipWhitespace();
    const second = this.regular();
    this.skipWhitespace();
    if (INTEGER.test(second) && this.peek() === 0x52 && this.isTokenEnd(this.pos + 1)) {
      this.pos++;
      return new PdfRef(first, Number(second));
    }
    this.pos = at;
    return first;
  }

  private isTokenEnd(at: number): boolean {
    if (at >= this.bytes.length) {
      if (this.atEndOfFile) return true;
      throw new NeedMoreBytes();
    }
    return WHITESPACE.has(this.bytes[at]) || DELIMITERS.has(this.bytes[at]);
  }

  private dict(depth: number): PdfDict {
    this.pos += 2;
    const dict: PdfDict = new Map();
    for (;;) {
      this.skipWhitespace();
      if (this.peek() === 0x3e) {
        this.pos++;
        if (this.peek() !== 0x3e) throw new PdfSyntaxError('">" inside a dictionary');
        this.pos++;
        return dict;
      }
      const key = this.value(depth + 1);
      if (!(key instanceof PdfName)) throw new PdfSyntaxError('a dictionary key is not a name');
      dict.set(key.name, this.object(depth + 1));
    }
  }

  private array(depth: number): PdfValue[] {
    this.pos++;
    const items: PdfValue[] = [];
    for (;;) {
      this.skipWhitespace();
      if (this.peek() === 0x5d) {
        this.pos++;
        return items;
      }
      items.push(this.object(depth + 1));
    }
  }

  private hexString(): string {
    const end = this.bytes.indexOf(0x3e, this.pos);
    if (end < 0) throw this.atEndOfFile ? new PdfSyntaxError('unterminated hex string') : new NeedMoreBytes();
    const hex = this.bytes.toString('latin1', this.pos + 1, end).replace(/\s+/g, '');
    if (!/^[0-9a-fA-F]*$/.test(hex)) throw new PdfSyntaxError('not a hex string');
    this.pos = end + 1;
    return Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex').toString('latin1');
  }

  /** The raw bytes between the parentheses (escapes are not needed for structure checks). */
  private literalString(): string {
    const start = ++this.pos;
    let open = 1;
    while (open > 0) {
      const byte = this.peek();
      this.pos++;
      if (byte === 0x5c) this.pos++;
      else if (byte === 0x28) open++;
      else if (byte === 0x29) open--;
    }
    return this.bytes.toString('latin1', start, this.pos - 1);
  }
}
