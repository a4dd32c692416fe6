// Shipping of an invoice over HTTP: its deliveries, its letters, and the confirmation of a letter the
// client shipped itself (manual_shipping).
import { setStoredDocumentHeaders, wantsInline } from '../../common/stored-document.js';
import { Controller, Get, HttpCode, Inject, Param, Post, Res, StreamableFile } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentActor, CurrentCompany } from '../../auth/auth.decorators.js';
import type { CompanyContext } from '../../auth/principal.js';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import { serializeInvoice } from '../../invoices/invoice.serializer.js';
import type { Actor } from '../../invoices/invoices.repository.js';
import { InvoicesService } from '../../invoices/invoices.service.js';
import { InvoiceResponseSchema } from '../../invoices/invoice.serializer.js';
import { ApiDoc, ApiOk, ApiPdf, ApiProblems } from '../../openapi/responses.js';
import { schemaRef } from '../../openapi/schema.js';
import { InvoiceDeliveriesSchema, serializeDelivery } from '../delivery/delivery.serializer.js';
import { serializeShipment } from './shipment.serializer.js';
import type { RenderedLetter } from '../letters/shipping-letters.js';
import { ShippingService } from './shipping.service.js';
import { StatementsOfClaim } from '../letters/statements-of-claim.service.js';

@ApiTags('shipping')
@ApiProblems(401, 403, 429)
@Controller('api/v1/invoices')
export class ShippingController {
  constructor(
    private readonly shipping: ShippingService,
    private readonly invoices: InvoicesService,
    private readonly statements: StatementsOfClaim,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':id/deliveries')
  @ApiDoc(
    'List an invoice’s deliveries',
    'Every delivery attempt (channel, recipient, time, outcome, provider id, Message-ID) and every shipment of the invoice and its reminders',
  )
  @ApiOk(InvoiceDeliveriesSchema, '`{deliveries: [...], shipments: [...]}`')
  @ApiProblems(404)
  async deliveries(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    const { shipments, deliveries } = await this.shipping.deliveries(company, id);
    const ctx = this.context(company);
    return { deliveries: deliveries.map((d) => serializeDelivery(d, ctx)), shipments: shipments.map((s) => serializeShipment(s, ctx)) };
  }

  @Get(':id/letter')
  @ApiDoc(
    'Download the invoice’s postal letter',
    'The letter as it went (or goes) by post: cover page when configured, the invoice PDF, its attachment.',
  )
  @ApiPdf('The postal letter of the invoice (cover page when configured, the invoice PDF, its attachment): as shipped, else rendered now')
  @ApiProblems(404)
  async invoiceLetter(@CurrentCompany() company: CompanyContext, @Param('id') id: string, @Res({ passthrough: true }) res: Response) {
    return this.download(await this.shipping.letter(company, id, null), res);
  }

  @Get(':id/statement_of_claim')
  @ApiPdf(
    'The statement of claim (Forderungsaufstellung) for the debt-collection hand-over: principal, each cost, interest per period with ' +
      'its rate, payments with their § 367 BGB allocation, running balance and the sums open today. Rendered from the current data; ' +
      'available once the invoice was handed to debt collection (409 invoice.not_handed_over before)',
  )
  @ApiProblems(404, 409)
  @ApiDoc(
    'Statement of claim',
    'The Forderungsaufstellung of an invoice handed to debt collection, as PDF (the form a Mahnbescheid application needs).',
  )
  async statementOfClaim(@CurrentCompany() company: CompanyContext, @Param('id') id: string, @Res({ passthrough: true }) res: Response) {
    return this.download(await this.statements.pdf(company, id), res);
  }

  @Get(':id/reminders/:reminderId/letter')
  @ApiDoc('Download a reminder letter', 'The DIN 5008 reminder letter as shipped (stored), else rendered now from the current data.')
  @ApiPdf('The DIN 5008 reminder letter: as shipped (stored), else rendered now from the current data')
  @ApiProblems(404)
  async reminderLetter(
    @CurrentCompany() company: CompanyContext,
    @Param('id') id: string,
    @Param('reminderId') reminderId: string,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.download(await this.shipping.letter(company, id, reminderId), res);
  }

  @Post(':id/confirm_shipping')
  @HttpCode(200)
  @ApiDoc('Confirm an invoice was posted', 'manual_shipping: the client printed and posted the letter; the invoice becomes sent.')
  @ApiOk(InvoiceResponseSchema)
  @ApiProblems(404, 409)
  async confirmInvoice(@CurrentCompany() company: CompanyContext, @CurrentActor() actor: Actor, @Param('id') id: string) {
    await this.shipping.confirm(company, id, null, actor);
    return this.wire(company, id);
  }

  @Post(':id/reminders/:reminderId/confirm_shipping')
  @HttpCode(200)
  @ApiDoc('Confirm a reminder was posted', 'manual_shipping of a reminder: the client posted it; the reminder counts as sent.')
  @ApiOk(InvoiceResponseSchema)
  @ApiProblems(404, 409)
  async confirmReminder(
    @CurrentCompany() company: CompanyContext,
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Param('reminderId') reminderId: string,
  ) {
    await this.shipping.confirm(company, id, reminderId, actor);
    return this.wire(company, id);
  }

  @Post(':id/reminders/:reminderId/ship')
  @HttpCode(202)
  @ApiDoc(
    'Ship a reminder again',
    'Ships an issued reminder again after its shipment failed or was flagged (the cause fixed); sent once delivered (GET …/deliveries)',
  )
  @ApiResponse({ status: 202, schema: schemaRef(InvoiceResponseSchema), description: 'Shipping is under way' })
  @ApiProblems(404, 409, 422)
  async shipReminder(
    @CurrentCompany() company: CompanyContext,
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Param('reminderId') reminderId: string,
  ) {
    await this.shipping.shipReminderAgain(company, id, reminderId, actor);
    return this.wire(company, id);
  }

  private download(letter: Pick<RenderedLetter, 'pdf' | 'filename'>, res: Response) {
    setStoredDocumentHeaders(res, letter.filename, wantsInline(res.req.query.inline));
    return new StreamableFile(letter.pdf, { type: 'application/pdf', length: letter.pdf.length });
  }

  private async wire(company: CompanyContext, id: string) {
    return { invoice: serializeInvoice(await this.invoices.get(company, id), this.context(company)) };
  }

  private context(company: CompanyContext) {
    return { timeZone: company.timeZone, publicUrl: this.config.publicUrl };
  }
}
