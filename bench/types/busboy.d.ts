// The part of busboy's API the bench uses (multer's multipart parser; the package ships no types).
declare module 'busboy' {
  import type { IncomingHttpHeaders } from 'node:http';
  import type { Readable, Writable } from 'node:stream';

  export interface FileInfo {
    filename: string;
    encoding: string;
    mimeType: string;
  }

  export interface FieldInfo {
    nameTruncated: boolean;
    valueTruncated: boolean;
    encoding: string;
    mimeType: string;
  }

  export interface BusboyConfig {
    headers: IncomingHttpHeaders;
    limits?: { fieldSize?: number; fields?: number; fileSize?: number; files?: number; parts?: number; headerPairs?: number };
  }

  export interface Busboy extends Writable {
    on(event: 'file', listener: (name: string, stream: Readable & { truncated: boolean }, info: FileInfo) => void): this;
    on(event: 'field', listener: (name: string, value: string, info: FieldInfo) => void): this;
    on(event: 'close', listener: () => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
    on(event: 'partsLimit' | 'filesLimit' | 'fieldsLimit', listener: () => void): this;
  }

  function busboy(config: BusboyConfig): Busboy;
  export default busboy;
}
