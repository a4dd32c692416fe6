// How a stored document (an uploaded invoice PDF, a rendered letter) is served. Uploaded PDFs can carry
// active content (JavaScript in /OpenAction or /AA, /Launch, embedded files): served as an attachment,
// in a CSP sandbox and never sniffed as another type, a browser neither runs it nor shows it as our page.
import type { Response } from 'express';

/** `?inline=true` asks for the browser's viewer; anything else downloads. */
export function wantsInline(query: unknown): boolean {
  return typeof query === 'string' && /^(true|1)$/i.test(query);
}

export function setStoredDocumentHeaders(res: Response, filename: string, inline: boolean): void {
  res.setHeader('Content-Disposition', `${inline ? 'inline' : 'attachment'}; filename="${filename}"`);
  res.setHeader('Content-Security-Policy', 'sandbox');
  res.setHeader('X-Content-Type-Options', 'nosniff');
}
