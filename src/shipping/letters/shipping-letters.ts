// The letters of shipping as PDF: a reminder letter, or an invoice's postal letter (its own PDF and
// attachment, behind a cover page when the company asks for one). A shipment's letter is rendered once,
// under the shipment's row lock, and kept in the document store: what went out can be shown later exactly.
// An invoice without a PDF of its own (pulled from the ERP) gets one rendered, a complete invoice or a
// payment request as invoice-kind.ts decides (DIN 5008, window-ready, so no cover page); when it is
// shipped, that PDF is stored as the invoice's PDF (GET …/pdf serves it then).
import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { loadPdf } from '../../documents/pdf-load.js';
import type { Readable } from 'node:stream';
import type { EntityManager } from 'typeorm';
import { todayIn } from '../../common/calendar-date.js';
import { AppError } from '../../common/errors.js';
import { DocumentNotFoundError, DocumentStore } from '../../documents/document-store.js';
import { mergePdfs, renderCoverLetter, renderLetter } from '../../letters/letter-renderer.js';
import { renderedInvoice } from './invoice-document.js';
import { invoicePdfKind } from './invoice-kind.js';
import { coverLetter, invoiceNumberOf, reminderLetter, reminderTitle } from './letter-content.js';
import { FILE_NAME } from '../../letters/messages.de.js';
import type { Shipment } from '../shipments/shipment.js';
import type { ShippingContext } from '../shipments/shipping-context.js';
import { ShipmentsRepository } from '../shipments/shipments.repository.js';

export interface RenderedLetter {
  pdf: Buffer;
  pages: number;
  filename: string;
}

@Injectable()
export class ShippingLetters {
  constructor(
    private readonly documents: DocumentStore,
    private readonly shipments: ShipmentsRepository,
  ) {}

  /** The shipment's letter (the caller holds the shipment's lock): stored on first use, read afterwards. */
  async ofShipment(manager: EntityManager, shipment: Shipment, ctx: ShippingContext): Promise<RenderedLetter & { shipment: Shipment }> {
    const filename = letterFileName(ctx);
    if (shipment.letterKey) {
      const pdf = await this.read(shipment.letterKey, 'letter of this shipment');
      return { pdf, pages: (await loadPdf(pdf, 'a stored letter')).getPageCount(), filename, shipment };
    }
    const letter = await this.render(ctx, manager);
    const key = `${shipment.companyId}/shipments/${shipment.id}/letter.pdf`;
    await this.documents.putBuffer(key, letter.pdf, 'application/pdf');
    return { ...letter, shipment: await this.shipments.updateShipment(shipment, { letterKey: key }, manager) };
  }

  /**
   * Renders from the current data. Without a manager it stores nothing (the preview of a letter not yet
   * sent); with one (shipping, under the shipment's lock) a rendered invoice PDF is kept as the invoice's.
   */
  async render(ctx: ShippingContext, manager: EntityManager | null = null): Promise<RenderedLetter> {
    const filename = letterFileName(ctx);
    if (ctx.reminder && ctx.terms) {
      const pdf = await renderLetter(reminderLetter(ctx, ctx.reminder, ctx.terms));
      return { pdf: Buffer.from(pdf), pages: (await loadPdf(pdf, 'a rendered reminder letter')).getPageCount(), filename };
    }
    // A PDF the service rendered has the window address already (and may be a payment request).
    const cover = ctx.settings.coverPage && invoicePdfKind(ctx) === 'own';
    const documents = await this.invoiceDocuments(ctx, manager);
    const { pdf, pages } = cover
      ? await renderCoverLetter(
          coverLetter(ctx, todayIn(ctx.company.timeZone)),
          documents.map((d) => d.content),
        )
      : await mergePdfs(documents.map((d) => d.content));
    return { pdf: Buffer.from(pdf), pages, filename };
  }

  /** The invoice PDF and its attachment as stored at intake; a rendered invoice PDF when there is none (see the header). */
  async invoiceDocuments(
    ctx: ShippingContext,
    manager: EntityManager | null = null,
  ): Promise<Array<{ filename: string; content: Buffer }>> {
    const number = invoiceNumberOf(ctx.invoice).replace(/[^\w.-]+/g, '_');
    const invoicePdf = ctx.invoice.pdfKey ? await this.read(ctx.invoice.pdfKey, 'invoice PDF') : await this.renderInvoice(ctx, manager);
    const attachment = ctx.invoice.attachmentKey
      ? [{ filename: FILE_NAME.attachment(number), content: await this.read(ctx.invoice.attachmentKey, "invoice's attachment") }]
      : [];
    // A payment request the service rendered is not named as the invoice either (invoice-kind.ts).
    const request = invoicePdfKind(ctx) === 'payment_request';
    return [{ filename: (request ? FILE_NAME.paymentRequest : FILE_NAME.invoice)(number), content: invoicePdf }, ...attachment];
  }

  private async renderInvoice(ctx: ShippingContext, manager: EntityManager | null): Promise<Buffer> {
    const pdf = Buffer.from(await renderLetter(renderedInvoice(ctx, todayIn(ctx.company.timeZone))));
    if (!manager) return pdf;
    const key = `${ctx.invoice.companyId}/invoices/${ctx.invoice.id}/${RENDERED_INVOICE}`;
    await this.documents.putBuffer(key, pdf, 'application/pdf');
    const sha256 = createHash('sha256').update(pdf).digest();
    await this.shipments.attachRenderedInvoicePdf(ctx.invoice, { key, size: pdf.length, sha256 }, manager);
    // The other channel of a dual shipment, later in this transaction or the next, reads it from the store.
    Object.assign(ctx.invoice, { pdfKey: key, pdfSize: String(pdf.length), pdfSha256: sha256 });
    return pdf;
  }

  /** A stored PDF; one gone from the store is a clear problem (404), for a download and a delivery alike. */
  async read(key: string, what = 'document'): Promise<Buffer> {
    let stream: Readable;
    try {
      stream = await this.documents.openRead(key);
    } catch (error) {
      if (error instanceof DocumentNotFoundError)
        throw new AppError('invoice.document_missing', `The ${what} is missing from the document store (key ${key})`);
      throw error;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }
}

const RENDERED_INVOICE = 'rendered-invoice.pdf';

export function letterFileName(ctx: ShippingContext): string {
  const number = invoiceNumberOf(ctx.invoice);
  const name = ctx.reminder ? `${reminderTitle(ctx.settings, ctx.reminder)}-${number}` : FILE_NAME.invoiceLetter(number);
  return `${name.replace(/[^\w.-]+/g, '_')}.pdf`;
}
