// A company's choice to refuse PDFs with active content (shipping setting refuse_active_pdf): the
// service e-mails and prints these PDFs to debtors, and a company can refuse to forward JavaScript,
// /Launch actions or embedded files to them. Uploads (POST /api/v1/invoices) and pushes (POST
// /v2/documents and its processing) ask here before anything is stored.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { activeContentRefused } from '../../documents/pdf-upload-errors.js';
import { ShippingSettingsRepository } from './shipping-settings.repository.js';

/** A checked PDF of a request: its field and what makes it active (null or absent: nothing). */
export interface CheckedPdf {
  field: string;
  activeContent: string | null | undefined;
}

@Injectable()
export class ActivePdfPolicy {
  constructor(private readonly settings: ShippingSettingsRepository) {}

  /**
   * 422 document.active_content for the first PDF with active content, when the company refuses them.
   * The setting is read only for such a PDF: the usual upload costs no query.
   */
  async assertAccepted(companyId: string, pdfs: CheckedPdf[], manager?: EntityManager): Promise<void> {
    const active = pdfs.find((pdf) => pdf.activeContent != null);
    if (!active?.activeContent) return;
    if ((await this.settings.get(companyId, manager)).refuseActivePdf) throw activeContentRefused(active.field, active.activeContent);
  }
}
