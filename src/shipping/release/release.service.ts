// Release of an invoice: it leaves the draft state and goes out — shipped by the service (POST …/release,
// options[autosend] on create) or taken as shipped by the client (options[autoskip_shipping]). The
// invoice feature writes the invoice and moves its status (InvoiceIntake, InvoicesService, the one
// transition function); shipping decides how it goes out (ShippingService), which makes it sent once it did.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CompanyContext } from '../../auth/principal.js';
import type { CreateInvoiceDto } from '../../invoices/dto/create-invoice.dto.js';
import type { Invoice } from '../../invoices/invoice.entity.js';
import { type CreateRelease, InvoiceIntake, type InvoiceUploads } from '../../invoices/invoice-intake.service.js';
import { assertReleasable } from '../../invoices/invoice-rules.js';
import type { InvoiceView } from '../../invoices/invoice.serializer.js';
import { InvoiceTransitions } from '../../invoices/ledger/invoice-transitions.js';
import type { Actor } from '../../invoices/invoices.repository.js';
import { type AnswerInTransaction, InvoicesService } from '../../invoices/invoices.service.js';
import { ShippingService } from '../shipments/shipping.service.js';
import { ActivePdfPolicy } from '../settings/active-pdf-policy.js';
import { type ReleaseDefaults, type ReleaseOptions, resolveRelease } from './release-options.js';

@Injectable()
export class ReleaseService {
  constructor(
    private readonly intake: InvoiceIntake,
    private readonly invoices: InvoicesService,
    private readonly transitions: InvoiceTransitions,
    private readonly shipping: ShippingService,
    private readonly activePdf: ActivePdfPolicy,
  ) {}

  /**
   * A new invoice, released in its create's transaction as the request's options and the company's
   * defaults say. PDFs with active content are refused first when the company says so (nothing stored).
   */
  async create(
    company: CompanyContext,
    dto: CreateInvoiceDto,
    uploads: InvoiceUploads,
    actor: Actor,
    answer?: AnswerInTransaction,
  ): Promise<InvoiceView> {
    await this.activePdf.assertAccepted(company.id, [
      { field: 'invoice', activeContent: uploads.invoice?.activeContent },
      { field: 'invoice_attachment', activeContent: uploads.invoice_attachment?.activeContent },
    ]);
    return this.intake.create(company, dto, uploads, actor, (defaults) => this.onCreate(dto.options, defaults, actor), answer);
  }

  /** Release ships the draft; it becomes sent once shipping succeeded (at once for skip_shipping). */
  release(
    company: CompanyContext,
    publicId: string,
    actor: Actor,
    reason: string | null,
    answer?: AnswerInTransaction,
  ): Promise<InvoiceView> {
    return this.invoices.answered(answer, async (manager) => {
      const invoice = await this.invoices.require(company, publicId, true, manager);
      assertReleasable(invoice);
      return this.shipping.shipInvoice(manager, invoice, actor, { reason, unroutable: 'refuse' });
    });
  }

  private onCreate(options: ReleaseOptions | null | undefined, defaults: ReleaseDefaults, actor: Actor): CreateRelease {
    const { autosend, autoskip } = resolveRelease(options, defaults);
    if (!autoskip && !autosend) return { skipShipping: false, apply: null };
    return { skipShipping: autoskip, apply: (manager, invoice) => this.releaseCreated(manager, invoice, autoskip, actor) };
  }

  /**
   * autoskip: the client ships it, it enters the cycle as sent; autosend: the service ships it now (the
   * deliveries are enqueued in this transaction, the invoice becomes sent once they succeeded; one that
   * cannot go out is created all the same and flagged for attention).
   */
  private async releaseCreated(manager: EntityManager, invoice: Invoice, autoskip: boolean, actor: Actor): Promise<Invoice> {
    assertReleasable(invoice);
    if (!autoskip) return this.shipping.shipInvoice(manager, invoice, actor, { reason: 'options[autosend]', unroutable: 'flag' });
    return this.transitions.apply(manager, invoice, 'release', actor, 'options[autoskip_shipping]: shipped by the client');
  }
}
