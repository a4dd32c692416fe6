// A company's logo in the letterhead: which images are accepted (PNG and JPEG, known by their first
// bytes, never by a file name) and how one is fitted into the letterhead's logo box.
import { PDFDocument, type PDFImage } from 'pdf-lib';

export const LOGO_TYPES = ['image/png', 'image/jpeg'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

/** The largest logo accepted: a letterhead logo needs far less, and every letter carries it. */
export const LOGO_MAX_BYTES = 512 * 1024;

export interface LetterLogo {
  contentType: LogoType;
  bytes: Uint8Array;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];

const startsWith = (bytes: Uint8Array, signature: number[]) => signature.every((byte, i) => bytes[i] === byte);

/** The image type by its magic bytes; null for anything that is neither a PNG nor a JPEG. */
export function logoTypeOf(bytes: Uint8Array): LogoType | null {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'image/png';
  if (startsWith(bytes, JPEG_SIGNATURE)) return 'image/jpeg';
  return null;
}

export function embedLogo(doc: PDFDocument, logo: LetterLogo): Promise<PDFImage> {
  return logo.contentType === 'image/png' ? doc.embedPng(logo.bytes) : doc.embedJpg(logo.bytes);
}

/** Whether pdf-lib can place the image in a letter: a broken or unsupported file is refused at upload, not at shipping. */
export async function isEmbeddable(logo: LetterLogo): Promise<boolean> {
  try {
    await embedLogo(await PDFDocument.create(), logo);
    return true;
  } catch {
    return false;
  }
}

/** The largest size of a `width` × `height` image inside the box that keeps its aspect ratio. */
export function fitInto(width: number, height: number, box: { width: number; height: number }): { width: number; height: number } {
  const scale = Math.min(box.width / width, box.height / height);
  return { width: width * scale, height: height * scale };
}
