import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Res, StreamableFile } from '@nestjs/common';
import { setStoredDocumentHeaders, wantsInline } from '../common/stored-document.js';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ExternalIdPipe } from '../common/external-id.pipe.js';
import { CurrentActor, CurrentCompany } from '../auth/auth.decorators.js';
import type { CompanyContext } from '../auth/principal.js';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { type PageRequest, pageMeta, Pagination } from '../common/pagination.js';
import { Claim, type IdempotencyClaim } from '../idempotency/idempotency-claim.js';
import { Idempotent } from '../idempotency/idempotency.interceptor.js';
import { InvoiceActionDto } from './dto/action.dto.js';
import { CreatePaymentDto } from './dto/payment.dto.js';
import { UpdateInvoiceDto } from './dto/update-invoice.dto.js';
import { InvoiceAction } from './invoice-action.openapi.js';
import { ApiInvoiceFilters, parseInvoiceFilters } from './invoice-filters.js';
import { InvoiceEventListSchema, serializeEvent } from './invoice-event.serializer.js';
import { InvoiceListSchema, InvoiceResponseSchema, serializeInvoice, type InvoiceView } from './invoice.serializer.js';
import { type AnswerInTransaction, InvoicesService, type ManualAction } from './invoices.service.js';
import type { Actor } from './invoices.repository.js';
import { PaymentsService } from './payments.service.js';
import { ApiCreated, ApiDoc, ApiFormBody, ApiNoContent, ApiOk, ApiPaged, ApiPdf, ApiProblems } from '../openapi/responses.js';

/** The create (POST) and release of an invoice ship it: shipping's ReleaseController serves them. */
@ApiTags('invoices')
@ApiProblems(401, 403, 429)
@Controller('api/v1/invoices')
export class InvoicesController {
  constructor(
    private readonly invoices: InvoicesService,
    private readonly payments: PaymentsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiDoc('List invoices', 'The company’s invoices, a page at a time, filtered by status, customer and dates.')
  @ApiPaged()
  @ApiInvoiceFilters()
  @ApiOk(InvoiceListSchema)
  @ApiProblems(400)
  async list(@CurrentCompany() company: CompanyContext, @Pagination() page: PageRequest, @Query() query: Record<string, unknown>) {
    const { items, total } = await this.invoices.list(company, parseInvoiceFilters(query), page);
    return { invoices: items.map((view) => this.wire(company, view).invoice), meta: pageMeta(page, total) };
  }

  @Get('find/:externalId')
  @ApiDoc('Find an invoice by external_id', 'The invoice whose `external_id` matches (case-insensitive); answers `{"invoice": …}`.')
  @ApiOk(InvoiceResponseSchema, 'The invoice with this external_id (case-insensitive)')
  @ApiProblems(404)
  async find(@CurrentCompany() company: CompanyContext, @Param('externalId', ExternalIdPipe) externalId: string) {
    return this.wire(company, await this.invoices.find(company, externalId));
  }

  @Get(':id')
  @ApiDoc('Get an invoice', 'An invoice with its customer, payments and reminders; answers `{"invoice": …}`.')
  @ApiOk(InvoiceResponseSchema)
  @ApiProblems(404)
  async get(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    return this.wire(company, await this.invoices.get(company, id));
  }

  @Patch(':id')
  @ApiDoc('Update an invoice', 'Changes the fields sent while the invoice’s status allows it (409 names the fields that may still change).')
  @ApiFormBody()
  @ApiOk(InvoiceResponseSchema, 'The invoice with the updated values')
  @ApiProblems(400, 404, 409, 413, 415, 422)
  async update(
    @CurrentCompany() company: CompanyContext,
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: UpdateInvoiceDto,
  ) {
    return this.wire(company, await this.invoices.update(company, id, body, actor));
  }

  @Get(':id/pdf')
  @ApiDoc('Download the invoice PDF', 'The PDF uploaded with the invoice, as it was uploaded.')
  @ApiPdf('The invoice PDF')
  @ApiProblems(404)
  pdf(@CurrentCompany() company: CompanyContext, @Param('id') id: string, @Res({ passthrough: true }) res: Response) {
    return this.download(company, id, 'pdf', res);
  }

  @Get(':id/attachment')
  @ApiDoc('Download the attachment PDF', 'The attachment uploaded with the invoice; 404 when it has none.')
  @ApiPdf('The attachment PDF; 404 when the invoice has none')
  @ApiProblems(404)
  attachment(@CurrentCompany() company: CompanyContext, @Param('id') id: string, @Res({ passthrough: true }) res: Response) {
    return this.download(company, id, 'attachment', res);
  }

  @Get(':id/events')
  @ApiDoc('List the invoice’s history', 'Every status change, payment and reminder of the invoice, oldest first.')
  @ApiOk(InvoiceEventListSchema, 'The invoice’s history, oldest first')
  @ApiProblems(404)
  async events(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    const events = await this.invoices.events(company, id);
    return { events: events.map((event) => serializeEvent(event, this.context(company))) };
  }

  @Post(':id/payments')
  @ApiDoc('Record a payment', 'Records a payment on the invoice and recomputes its open amount; a payment that settles it marks it paid.')
  @HttpCode(201)
  @Idempotent()
  @ApiFormBody({ idempotent: true })
  @ApiCreated(InvoiceResponseSchema, 'The invoice with the payment recorded')
  @ApiProblems(400, 404, 409, 413, 415, 422)
  async addPayment(
    @CurrentCompany() company: CompanyContext,
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: CreatePaymentDto,
    @Claim() claim?: IdempotencyClaim,
  ) {
    return this.wire(
      company,
      await this.invoices.recordPayment(
        company,
        id,
        body,
        actor,
        this.remember(company, claim, () => 201),
      ),
    );
  }

  @Delete(':id/payments/:paymentId')
  @ApiDoc('Delete a payment', 'Removes a payment and recomputes the open amount (and the status it implies).')
  @HttpCode(204)
  @ApiNoContent('The payment is deleted and the open amount recomputed')
  @ApiProblems(404, 409)
  async deletePayment(
    @CurrentCompany() company: CompanyContext,
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Param('paymentId') paymentId: string,
  ) {
    await this.payments.remove(company, id, paymentId, actor);
  }

  @Post(':id/archive')
  @InvoiceAction('Archive an invoice', 'Moves the invoice to archived; 409 (with `allowed_from`) where its status does not allow it.')
  archive(
    @CurrentCompany() c: CompanyContext,
    @CurrentActor() a: Actor,
    @Param('id') id: string,
    @Body() body: InvoiceActionDto,
    @Claim() claim?: IdempotencyClaim,
  ) {
    return this.act(c, a, id, 'archive', body, claim);
  }

  @Post(':id/mark_duplicate')
  @InvoiceAction('Mark an invoice as a duplicate', 'A duplicate of another invoice, not pursued; 409 where its status does not allow it.')
  markDuplicate(
    @CurrentCompany() c: CompanyContext,
    @CurrentActor() a: Actor,
    @Param('id') id: string,
    @Body() body: InvoiceActionDto,
    @Claim() claim?: IdempotencyClaim,
  ) {
    return this.act(c, a, id, 'mark_duplicate', body, claim);
  }

  @Post(':id/write_off')
  @InvoiceAction('Write off an invoice', 'The open amount is given up; 409 where the invoice’s status does not allow it.')
  writeOff(
    @CurrentCompany() c: CompanyContext,
    @CurrentActor() a: Actor,
    @Param('id') id: string,
    @Body() body: InvoiceActionDto,
    @Claim() claim?: IdempotencyClaim,
  ) {
    return this.act(c, a, id, 'write_off', body, claim);
  }

  @Post(':id/hand_to_collection')
  @InvoiceAction('Hand an invoice to debt collection', 'For an invoice ready for debt collection; 409 (`allowed_from`) otherwise.')
  handToCollection(
    @CurrentCompany() c: CompanyContext,
    @CurrentActor() a: Actor,
    @Param('id') id: string,
    @Body() body: InvoiceActionDto,
    @Claim() claim?: IdempotencyClaim,
  ) {
    return this.act(c, a, id, 'hand_to_collection', body, claim);
  }

  private async act(
    company: CompanyContext,
    actor: Actor,
    id: string,
    action: ManualAction,
    body: InvoiceActionDto,
    claim?: IdempotencyClaim,
  ) {
    return this.wire(
      company,
      await this.invoices.act(
        company,
        id,
        action,
        actor,
        body?.reason ?? null,
        this.remember(company, claim, () => 200),
      ),
    );
  }

  /** With an Idempotency-Key: the answer, exactly as sent, is stored in the work's transaction. */
  private remember(
    company: CompanyContext,
    claim: IdempotencyClaim | undefined,
    status: (view: InvoiceView) => number,
  ): AnswerInTransaction | undefined {
    return claim && ((manager, view) => claim.store(manager, status(view), this.wire(company, view)));
  }

  private async download(company: CompanyContext, id: string, which: 'pdf' | 'attachment', res: Response) {
    const file = await this.invoices.openDocument(company, id, which);
    setStoredDocumentHeaders(res, file.filename, wantsInline(res.req.query.inline));
    return new StreamableFile(file.stream, { type: 'application/pdf', length: file.size });
  }

  private context(company: CompanyContext) {
    return { timeZone: company.timeZone, publicUrl: this.config.publicUrl };
  }

  private wire(company: CompanyContext, view: InvoiceView) {
    return { invoice: serializeInvoice(view, this.context(company)) };
  }
}
