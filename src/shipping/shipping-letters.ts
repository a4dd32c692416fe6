// The letters of shipping as PDF: a reminder letter, or an invoice's postal letter (its own PDF and
// attachment, behind a cover page when the company asks for one). A shipment's letter is rendered once,
// under the shipment's row lock, and kept in the document store: what went out can be shown later exactly.
import { Injectable } from '@nestjs/common';
import { PDFDocument } from 'pdf-lib';
import type { Readable } from 'node:stream';
import type { EntityManager } from 'typeorm';
import { todayIn } from '../common/calendar-date.js';
import { AppError } from '../common/errors.js';
import { DocumentNotFoundError, DocumentStore } from '../documents/document-store.js';
import { mergePdfs, renderCoverLetter, renderLetter } from '../letters/letter-renderer.js';
import { coverLetter, invoiceNumberOf, reminderLetter, reminderTitle } from './letter-content.js';
import type { Shipment } from './shipment.js';
import type { ShippingContext } from './shipping-context.js';
import { ShipmentsRepository } from './shipments.repository.js';

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
      return { pdf, pages: (await PDFDocument.load(pdf, { ignoreEncryption: true })).getPageCount(), filename, shipment };
    }
    const letter = await this.render(ctx);
    const key = `${shipment.companyId}/shipments/${shipment.id}/letter.pdf`;
    await this.documents.putBuffer(key, letter.pdf, 'application/pdf');
    return { ...letter, shipment: await this.shipments.updateShipment(shipment, { letterKey: key }, manager) };
  }

  /** Renders from the current data, storing nothing: the preview of a letter not yet sent. */
  async render(ctx: ShippingContext): Promise<RenderedLetter> {
    const filename = letterFileName(ctx);
    if (ctx.reminder && ctx.terms) {
      const pdf = await renderLetter(reminderLetter(ctx, ctx.reminder, ctx.terms));
      return { pdf: Buffer.from(pdf), pages: (await PDFDocument.load(pdf)).getPageCount(), filename };
    }
    const documents = await this.invoiceDocuments(ctx);
    const { pdf, pages } = ctx.settings.coverPage
      ? await renderCoverLetter(coverLetter(ctx, todayIn(ctx.company.timeZone)), documents.map((d) => d.content))
      : await mergePdfs(documents.map((d) => d.content));
    return { pdf: Buffer.from(pdf), pages, filename };
  }

  /** The client's invoice PDF and its attachment, as stored at intake. */
  async invoiceDocuments(ctx: ShippingContext): Promise<Array<{ filename: string; content: Buffer }>> {
    const number = invoiceNumberOf(ctx.invoice).replace(/[^\w.-]+/g, '_');
    const files = [
      { key: ctx.invoice.pdfKey, filename: `Rechnung-${number}.pdf`, what: 'invoice PDF' },
      { key: ctx.invoice.attachmentKey, filename: `Anlage-${number}.pdf`, what: "invoice's attachment" },
    ].filter((f): f is { key: string; filename: string; what: string } => f.key !== null);
    return Promise.all(files.map(async (f) => ({ filename: f.filename, content: await this.read(f.key, f.what) })));
  }

  /** A stored PDF; one gone from the store is a clear problem (404), for a download and a delivery alike. */
  async read(key: string, what = 'document'): Promise<Buffer> {
    let stream: Readable;
    try {
      stream = await this.documents.openRead(key);
    } catch (error) {
      if (error instanceof DocumentNotFoundError) throw new AppError('invoice.document_missing', `The ${what} is missing from the document store (key ${key})`);
      throw error;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }
}

export function letterFileName(ctx: ShippingContext): string {
  const number = invoiceNumberOf(ctx.invoice);
  const name = ctx.reminder ? `${reminderTitle(ctx.settings, ctx.reminder)}-${number}` : `Brief-Rechnung-${number}`;
  return `${name.replace(/[^\w.-]+/g, '_')}.pdf`;
}
