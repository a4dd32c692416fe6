// POST /v2/documents (push a business document) and GET /v2/documents[/<id>], with an API key or an
// OAuth access token. 202 only after the document and its processing job are committed.
import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiExtraModels, ApiOkResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Authenticated, CurrentCompany, CurrentPrincipal } from '../auth/auth.decorators.js';
import type { CompanyContext, Principal } from '../auth/principal.js';
import { AppError } from '../common/errors.js';
import { DOCUMENTS_CONFIG, type DocumentsConfig } from '../config/documents.config.js';
import { type PageRequest, pageMeta, Pagination } from '../common/pagination.js';
import { requestIdOf } from '../logging/logger.js';
import { CreditMemoDocumentDto, CustomerDocumentDto, InvoiceDocumentDto, PaymentDocumentDto } from './dto/push-document.dto.js';
import { serializeDocument } from './push-document.serializer.js';
import { credentialOf, PushDocumentsService } from './push-documents.service.js';
import { parseDocumentFilters } from './push-filters.js';
import { readPushDocument } from './push-input.js';

const BODIES = { invoice: InvoiceDocumentDto, credit_memo: CreditMemoDocumentDto, payment: PaymentDocumentDto, customer: CustomerDocumentDto };

@ApiTags('push')
@ApiExtraModels(...Object.values(BODIES))
@Authenticated('apikey', 'bearer')
@Controller('v2/documents')
export class DocumentsController {
  constructor(
    private readonly documents: PushDocumentsService,
    @Inject(DOCUMENTS_CONFIG) private readonly files: DocumentsConfig,
  ) {}

  @Post()
  @HttpCode(202)
  @ApiBody({
    description: 'One business document, `Content-Type: application/json`; the fields depend on document_type',
    schema: {
      oneOf: Object.values(BODIES).map((dto) => ({ $ref: getSchemaPath(dto) })),
      discriminator: { propertyName: 'document_type', mapping: Object.fromEntries(Object.entries(BODIES).map(([type, dto]) => [type, getSchemaPath(dto)])) },
    },
  })
  @ApiAcceptedResponse({ description: '`{"document": {...}}` with status `queued`: stored with its processing job; `Location` names it' })
  @ApiOkResponse({ description: 'An identical document was pushed before: nothing new is queued, the answer is that first document (`Content-Location`)' })
  async push(
    @CurrentCompany() company: CompanyContext,
    @CurrentPrincipal() principal: Principal,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @Body() body: unknown,
  ) {
    if (!req.is(['application/json', '+json'])) {
      throw new AppError('request.unsupported_media_type', 'Send the document as JSON with Content-Type: application/json');
    }
    const input = await readPushDocument(body, this.files.maxUploadMb * 1024 * 1024);
    const { document, created } = await this.documents.accept(company, input, credentialOf(principal, requestIdOf(req)));
    const location = `/v2/documents/doc-${document.id}`;
    if (created) res.setHeader('Location', location);
    else res.status(200).setHeader('Content-Location', location);
    return { document: serializeDocument(document, company.timeZone) };
  }

  @Get()
  async list(@CurrentCompany() company: CompanyContext, @Pagination() page: PageRequest, @Query() query: Record<string, unknown>) {
    const { documents, total } = await this.documents.list(company, parseDocumentFilters(query), page);
    return { documents: documents.map((d) => serializeDocument(d, company.timeZone)), meta: pageMeta(page, total) };
  }

  @Get(':id')
  async get(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    return { document: serializeDocument(await this.documents.get(company, id), company.timeZone) };
  }
}
