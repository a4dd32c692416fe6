// The ERP's own invoice PDF for pulled invoices (case (b) of src/shipping/letters/invoice-kind.ts): a
// pulled item is an invoice the ERP has issued, and only its original says what § 14 (4) UStG asks for.
// When the connection says so (fetch_invoice_pdfs, off by default), each pull asks SAP for the billing
// document's PDF (function import GetPDF of API_BILLING_DOCUMENT_SRV) of the connection's invoices that
// have none yet, and keeps it as the invoice's PDF like an uploaded one. The billing document is the
// invoice's additional_number when the mapping takes it from BillingDocument (the SAP default). A
// billing document without output (404) or a PDF with active content is left out (the service then
// renders a payment request); the next pull asks again. An unreachable ERP ends the fetching, not the run.
import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { newUuid, toPublicId } from '../../common/ids.js';
import { ConnectorError } from '../../connectors/connector-error.js';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';
import { DocumentStore } from '../../documents/document-store.js';
import { inspectPdfBytes } from '../../documents/pdf-inspection.js';
import type { RunContext } from '../run/run-context.js';

export const BILLING_DOCUMENT_PDF = '/sap/opu/odata/sap/API_BILLING_DOCUMENT_SRV/GetPDF';

/** At most this many PDFs per run: a first pull of a large ledger fetches the rest over the next runs. */
const PER_RUN = 500;

const WITHOUT_PDF = statement<{ id: string; billing_document: string }>(
  'erp_pull.invoices_without_pdf',
  `SELECT i.id, i.additional_number AS billing_document FROM erp_pulled_invoices p
     JOIN invoices i ON i.company_id = p.company_id AND i.id = p.invoice_id
    WHERE p.company_id = $1 AND p.connection_id = $2 AND i.pdf_key IS NULL AND i.additional_number <> ''
    ORDER BY i.id LIMIT $3`,
);

/** Only an invoice still without a PDF gets this one (a shipment may have rendered one meanwhile). */
const ATTACH = statement(
  'erp_pull.attach_invoice_pdf',
  `UPDATE invoices SET pdf_key = $3, pdf_size = $4, pdf_sha256 = $5, pdf_active_content = false, updated_at = now()
    WHERE company_id = $1 AND id = $2 AND pdf_key IS NULL`,
);

@Injectable()
export class ErpInvoicePdfs {
  private readonly logger = new Logger(ErpInvoicePdfs.name);

  constructor(
    private readonly sql: Sql,
    private readonly documents: DocumentStore,
  ) {}

  /** Whether this connection's pulled invoices can have their PDFs fetched (the setting, V2, the mapping). */
  applies(ctx: RunContext): boolean {
    const { connection, mapping } = ctx;
    return (
      connection.fetchInvoicePdfs && connection.odataVersion === 'v2' && mapping.receivables.fields.additional_number === 'BillingDocument'
    );
  }

  /** Fetches and stores what it can; returns how many PDFs it stored. Never throws for the ERP's sake. */
  async fetchMissing(ctx: RunContext): Promise<number> {
    if (!this.applies(ctx)) return 0;
    const { companyId, id: connectionId } = ctx.connection;
    const invoices = await this.sql.rows(WITHOUT_PDF, [companyId, connectionId, PER_RUN]);
    let stored = 0;
    for (const invoice of invoices) {
      let pdf: Buffer | null;
      try {
        pdf = await this.fetch(ctx, invoice.billing_document);
      } catch (error) {
        if (error instanceof ConnectorError && error.kind === 'not_found') continue;
        this.logger.warn({ run: ctx.runId, err: error }, 'ERP invoice PDFs: stopped fetching for this run');
        break;
      }
      if (!pdf) {
        this.logger.warn(
          { run: ctx.runId, invoice: toPublicId('inv', invoice.id) },
          'ERP invoice PDF not kept: not a PDF or active content',
        );
        continue;
      }
      const key = `${companyId}/invoices/${invoice.id}/erp-${newUuid()}.pdf`;
      await this.documents.putBuffer(key, pdf, 'application/pdf');
      const sha256 = createHash('sha256').update(pdf).digest();
      if ((await this.sql.affected(ATTACH, [companyId, invoice.id, key, String(pdf.length), sha256])) === 1) stored++;
      else await this.documents.delete(key);
    }
    return stored;
  }

  /** The billing document's PDF; null when the answer is no PDF or carries active content. */
  private async fetch(ctx: RunContext, billingDocument: string): Promise<Buffer | null> {
    const result = await ctx.client.callFunction(BILLING_DOCUMENT_PDF, { BillingDocument: billingDocument });
    const binary = result.BillingDocumentBinary;
    if (typeof binary !== 'string') return null;
    const pdf = Buffer.from(binary, 'base64');
    if (!pdf.subarray(0, 1024).includes(Buffer.from('%PDF-'))) return null;
    try {
      return (await inspectPdfBytes(pdf)) === null ? pdf : null;
    } catch {
      return null;
    }
  }
}
