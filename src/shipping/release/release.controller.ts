// The routes of the invoice feature that ship an invoice: its create (with options[autosend]) and its
// release. Paths, answers and operation ids are those of the invoice feature's controller, which
// served them before release moved to shipping.
import { Body, Controller, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentActor, CurrentCompany } from '../../auth/auth.decorators.js';
import type { CompanyContext } from '../../auth/principal.js';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import { PdfUploadInterceptor, Uploads } from '../../documents/pdf-upload.js';
import { Claim, type IdempotencyClaim } from '../../idempotency/idempotency-claim.js';
import { Idempotent } from '../../idempotency/idempotency.interceptor.js';
import { InvoiceActionDto } from '../../invoices/dto/action.dto.js';
import { CreateInvoiceDto } from '../../invoices/dto/create-invoice.dto.js';
import type { InvoiceUploads } from '../../invoices/invoice-intake.service.js';
import { serializeInvoice, type InvoiceView } from '../../invoices/invoice.serializer.js';
import type { Actor } from '../../invoices/invoices.repository.js';
import type { AnswerInTransaction } from '../../invoices/invoices.service.js';
import { CreateInvoiceFormSchema } from '../../invoices/dto/create-invoice-form.schema.js';
import { InvoiceResponseSchema } from '../../invoices/invoice.serializer.js';
import { ApiCreated, ApiDoc, ApiFormBody, ApiMultipartBody, ApiOk, ApiProblems } from '../../openapi/responses.js';
import { schemaRef } from '../../openapi/schema.js';
import { ReleaseService } from './release.service.js';

const PDF_FIELDS = [{ name: 'invoice', required: true }, { name: 'invoice_attachment' }];

/** Still a draft after release: shipping is under way (GET …/deliveries); it becomes sent once that succeeded. */
const releaseStatus = (status: string): number => (status === 'draft' ? 202 : 200);

/** The operation id the route had in the invoice feature's controller (clients generated from openapi.json use it). */
const operationId = (id: string) => ApiOperation({ operationId: id, summary: undefined });

@ApiTags('invoices')
@ApiProblems(401, 403, 429)
@Controller('api/v1/invoices')
export class ReleaseController {
  constructor(
    private readonly release: ReleaseService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @ApiDoc(
    'Create an invoice',
    'Uploads an invoice: its fields and the PDF (and optionally an attachment) as `multipart/form-data`; answers `{"invoice": …}`.',
  )
  @HttpCode(201)
  @operationId('InvoicesController_create')
  @ApiMultipartBody(CreateInvoiceFormSchema, { idempotent: true })
  @ApiCreated(InvoiceResponseSchema)
  @ApiProblems(400, 409, 413, 415, 422)
  // Decorators apply bottom-up: the upload is parsed first, so the idempotency hash covers the files.
  @Idempotent()
  @PdfUploadInterceptor(PDF_FIELDS)
  async create(
    @CurrentCompany() company: CompanyContext,
    @CurrentActor() actor: Actor,
    @Body() body: CreateInvoiceDto,
    @Uploads() uploads: InvoiceUploads,
    @Claim() claim?: IdempotencyClaim,
  ) {
    return this.wire(
      company,
      await this.release.create(
        company,
        body,
        uploads,
        actor,
        this.remember(company, claim, () => 201),
      ),
    );
  }

  @Post(':id/release')
  @ApiDoc(
    'Release an invoice',
    'A draft invoice becomes due and is shipped by its shipping mode (202 while shipping runs in the background).',
  )
  @HttpCode(200)
  @operationId('InvoicesController_release')
  @Idempotent()
  @ApiFormBody({ optional: InvoiceActionDto, idempotent: true })
  @ApiOk(InvoiceResponseSchema)
  @ApiResponse({
    status: 202,
    schema: schemaRef(InvoiceResponseSchema),
    description: 'Shipping is under way: still a draft, sent once it succeeded (GET …/deliveries)',
  })
  @ApiProblems(400, 404, 409, 413, 415, 422)
  async releaseInvoice(
    @CurrentCompany() company: CompanyContext,
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: InvoiceActionDto,
    @Res({ passthrough: true }) res: Response,
    @Claim() claim?: IdempotencyClaim,
  ) {
    const remember = this.remember(company, claim, (view) => releaseStatus(view.invoice.status));
    const answer = this.wire(company, await this.release.release(company, id, actor, body?.reason ?? null, remember));
    res.status(releaseStatus(answer.invoice.invoice_status));
    return answer;
  }

  /** With an Idempotency-Key: the answer, exactly as sent, is stored in the work's transaction. */
  private remember(
    company: CompanyContext,
    claim: IdempotencyClaim | undefined,
    status: (view: InvoiceView) => number,
  ): AnswerInTransaction | undefined {
    return claim && ((manager, view) => claim.store(manager, status(view), this.wire(company, view)));
  }

  private wire(company: CompanyContext, view: InvoiceView) {
    return { invoice: serializeInvoice(view, { timeZone: company.timeZone, publicUrl: this.config.publicUrl }) };
  }
}
