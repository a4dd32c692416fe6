// The invoice page's reads and changes, through the same services as the API: the invoice, its history
// and deliveries; payments, the status actions and the dunning block, acted by the signed-in user.
import { Inject, Injectable } from '@nestjs/common';
import type { CompanyContext } from '../../auth/principal.js';
import { InvoiceActionDto } from '../../invoices/dto/action.dto.js';
import { CreatePaymentDto } from '../../invoices/dto/payment.dto.js';
import { UpdateInvoiceDto } from '../../invoices/dto/update-invoice.dto.js';
import { type InvoiceView, serializeInvoice } from '../../invoices/invoice.serializer.js';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import type { Actor } from '../../invoices/invoices.repository.js';
import { InvoicesService } from '../../invoices/invoices.service.js';
import { PaymentsService } from '../../invoices/payments.service.js';
import { ReleaseService } from '../../shipping/release/release.service.js';
import { ShippingService } from '../../shipping/shipments/shipping.service.js';
import { companyOf } from '../web-pages.js';
import type { SignedInUser } from '../web-users.repository.js';
import { type FieldErrors, type FormValues, parseForm } from './form-input.js';
import { offeredActions, type PageAction } from './invoice-actions.js';
import { editable, shippingOffers } from './invoice-operations.js';
import { InvoicePageRepository } from './invoice-page.repository.js';

export const PAYMENT_FIELDS = ['amount', 'payment_date', 'external_id', 'note', 'inkasso_payment'] as const;
export const ACTION_FIELDS = ['reason', 'dunning_block_reason', 'dunning_block_until'] as const;

/** The invoice as the API's serializer states it (its amounts are the page's). */
export type InvoiceWire = ReturnType<typeof serializeInvoice>;

/** Done (with the amount booked, for a payment), or refused field by field. */
export type Outcome = { ok: true; view: InvoiceView; amount?: string } | { ok: false; errors: FieldErrors };

const actorOf = (user: SignedInUser): Actor => ({ type: 'user', id: user.id });

@Injectable()
export class InvoicePageService {
  constructor(
    private readonly invoices: InvoicesService,
    private readonly payments: PaymentsService,
    private readonly release: ReleaseService,
    private readonly shipping: ShippingService,
    private readonly repository: InvoicePageRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The invoice and its wire form (the amounts as the API states them). */
  async invoice(user: SignedInUser, id: string): Promise<{ view: InvoiceView; wire: InvoiceWire }> {
    const view = await this.invoices.get(companyOf(user), id);
    return { view, wire: this.wire(user, view) };
  }

  wire(user: SignedInUser, view: InvoiceView): InvoiceWire {
    return serializeInvoice(view, { timeZone: user.timeZone, publicUrl: this.config.publicUrl });
  }

  /** Everything the invoice page shows. */
  async page(user: SignedInUser, id: string) {
    const company = companyOf(user);
    const { view, wire } = await this.invoice(user, id);
    const [events, { deliveries, shipments }] = await Promise.all([
      this.invoices.events(company, id),
      this.shipping.deliveries(company, id),
    ]);
    const userIds = events.filter((e) => e.actorType === 'user' && e.actorId).map((e) => e.actorId as string);
    const users = await this.repository.userEmails(user.companyId, userIds);
    const offers = shippingOffers(view, shipments, events);
    return { view, wire, events, deliveries, users, actions: offeredActions(view.invoice), offers, editable: editable(view.invoice) };
  }

  openDocument(user: SignedInUser, id: string, which: 'pdf' | 'attachment') {
    return this.invoices.openDocument(companyOf(user), id, which);
  }

  /** The letter of the invoice (reminderId null) or of a reminder. */
  letter(user: SignedInUser, id: string, reminderId: string | null) {
    return this.shipping.letter(companyOf(user), id, reminderId);
  }

  async addPayment(user: SignedInUser, id: string, values: FormValues): Promise<Outcome> {
    const parsed = await parseForm(CreatePaymentDto, values);
    if (!parsed.ok) return parsed;
    const view = await this.invoices.recordPayment(companyOf(user), id, parsed.dto, actorOf(user));
    return { ok: true, view, amount: parsed.dto.amount.toFixed(2) };
  }

  async deletePayment(user: SignedInUser, id: string, paymentId: string): Promise<void> {
    await this.payments.remove(companyOf(user), id, paymentId, actorOf(user));
  }

  async act(user: SignedInUser, id: string, action: PageAction, values: FormValues): Promise<Outcome> {
    const company = companyOf(user);
    if (action === 'block' || action === 'unblock') return this.changeBlock(company, user, id, action, values);
    const parsed = await parseForm(InvoiceActionDto, { reason: values.reason });
    if (!parsed.ok) return parsed;
    const reason = parsed.dto.reason ?? null;
    const view =
      action === 'release'
        ? await this.release.release(company, id, actorOf(user), reason)
        : await this.invoices.act(company, id, action, actorOf(user), reason);
    return { ok: true, view };
  }

  /** A block is a PATCH of the block's two fields (empty: lifted), as the API's clients set it. */
  private async changeBlock(company: CompanyContext, user: SignedInUser, id: string, action: 'block' | 'unblock', values: FormValues) {
    const fields =
      action === 'block'
        ? { dunning_block_reason: values.dunning_block_reason ?? '', dunning_block_until: values.dunning_block_until ?? '' }
        : { dunning_block_reason: null, dunning_block_until: null };
    const parsed = await parseForm(UpdateInvoiceDto, fields);
    if (!parsed.ok) return parsed;
    // An empty reason would lift the block: the block form asks for one.
    if (action === 'block' && !parsed.dto.dunning_block_reason) {
      return { ok: false as const, errors: { dunning_block_reason: 'dunning_block_reason is required' } };
    }
    return { ok: true as const, view: await this.invoices.update(company, id, parsed.dto, actorOf(user)) };
  }
}
