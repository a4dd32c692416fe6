// The PDF of a pushed invoice in the document store. Every version of the file gets a key of its own,
// so stored bytes are never overwritten: the record switches keys in its transaction, and the old file
// goes only after the commit. A PDF the service rendered (the document carried none) says so in its
// key, so that a changed draft gets its PDF rendered again while a client's PDF is never replaced by one.
import { createHash } from 'node:crypto';
import { newUuid } from '../../common/ids.js';
import { renderLetter } from '../../letters/letter-renderer.js';
import { renderedInvoice } from '../../shipping/letters/invoice-document.js';
import type { LetterParties } from '../../shipping/letters/letter-content.js';

export interface StoredPdf {
  pdfKey: string;
  pdfSize: string;
  pdfSha256: Buffer;
}

export const sha256 = (bytes: Buffer): Buffer => createHash('sha256').update(bytes).digest();

export function pdfKeyFor(companyId: string, invoiceId: string, rendered: boolean): string {
  return `${companyId}/invoices/${invoiceId}/${rendered ? 'rendered' : 'invoice'}-${newUuid()}.pdf`;
}

export function isRenderedKey(key: string | null): boolean {
  return key !== null && /\/rendered-[0-9a-f-]{36}\.pdf$/.test(key);
}

/**
 * The invoice's PDF when the document carries none: a complete invoice or a payment request, as
 * src/shipping/letters/invoice-kind.ts decides from the invoice, its customer and the company's settings.
 */
export async function renderFor(parties: LetterParties, today: string): Promise<Buffer> {
  return Buffer.from(await renderLetter(renderedInvoice(parties, today)));
}
