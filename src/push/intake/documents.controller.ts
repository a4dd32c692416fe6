// POST /v2/documents (push a business document) and GET /v2/documents[/<id>], with an API key or an
// OAuth access token. 202 only after the document and its processing job are committed.
import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiQuery, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Authenticated, CurrentCompany, CurrentPrincipal } from '../../auth/auth.decorators.js';
import type { CompanyContext, Principal } from '../../auth/principal.js';
import { AppError } from '../../common/errors.js';
import { DOCUMENTS_CONFIG, type DocumentsConfig } from '../../config/documents.config.js';
import { ActivePdfPolicy } from '../../shipping/settings/active-pdf-policy.js';
import { type PageRequest, pageMeta, Pagination } from '../../common/pagination.js';
import { requestIdOf } from '../../logging/logger.js';
import { CreditMemoDocumentDto, CustomerDocumentDto, InvoiceDocumentDto, PaymentDocumentDto } from '../dto/push-document.dto.js';
import { serializeDocument } from '../documents/push-document.serializer.js';
import { credentialOf, PushDocumentsService } from './push-documents.service.js';
import { parseDocumentFilters } from '../documents/push-filters.js';
import { readPushDocument } from './push-input.js';
import { PushDocumentListSchema, PushDocumentResponseSchema } from '../documents/push-document.serializer.js';
import { ApiDoc, ApiOk, ApiPaged, ApiProblems } from '../../openapi/responses.js';
import { schemaRef } from '../../openapi/schema.js';
import { DOCUMENT_STATUSES } from '../push-document.js';
import { DOCUMENT_TYPES } from '../dto/push-document.dto.js';

const header = (name: string) => ({ [name]: { $ref: `#/components/headers/${name}` } });
/** Sent with every answer to an API key that expires within API_KEY_EXPIRY_WARNING_DAYS. */
const EXPIRY_HEADERS = { ...header('Sunset'), ...header('API-Key-Expires-At') };

const BODIES = {
  invoice: InvoiceDocumentDto,
  credit_memo: CreditMemoDocumentDto,
  payment: PaymentDocumentDto,
  customer: CustomerDocumentDto,
};

@ApiTags('push')
@ApiExtraModels(...Object.values(BODIES))
@Authenticated('apikey', 'bearer')
@Controller('v2/documents')
export class DocumentsController {
  constructor(
    private readonly documents: PushDocumentsService,
    @Inject(DOCUMENTS_CONFIG) private readonly files: DocumentsConfig,
    private readonly activePdf: ActivePdfPolicy,
  ) {}

  @Post()
  @ApiDoc(
    'Push a business document',
    'Queues a customer, contact, invoice or payment pushed by an ERP (API key or OAuth bearer token); processed in the background.',
  )
  @HttpCode(202)
  @ApiBody({
    description: 'One business document, `Content-Type: application/json`; the fields depend on document_type',
    schema: {
      oneOf: Object.values(BODIES).map((dto) => ({ $ref: getSchemaPath(dto) })),
      discriminator: {
        propertyName: 'document_type',
        mapping: Object.fromEntries(Object.entries(BODIES).map(([type, dto]) => [type, getSchemaPath(dto)])),
      },
    },
  })
  @ApiResponse({
    status: 202,
    description: 'Stored together with its processing job (status `queued`); `Location` names it',
    schema: schemaRef(PushDocumentResponseSchema),
    headers: { ...header('Location'), ...EXPIRY_HEADERS },
  })
  @ApiResponse({
    status: 200,
    description:
      'An identical document (same fields after normalization) was pushed before: nothing new is queued, the answer is that first ' +
      'document (`Content-Location`) — whatever its status, also `dead_lettered` or `discarded`: replay a dead letter with POST /v2/dead_letters/<id>/replay',
    schema: schemaRef(PushDocumentResponseSchema),
    headers: { ...header('Content-Location'), ...EXPIRY_HEADERS },
  })
  @ApiProblems(400, 401, 413, 415, 422, 429)
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
    // Refused before it is queued; processing asks again (the setting may change, a dead letter be replayed).
    await this.activePdf.assertAccepted(company.id, [{ field: 'pdf', activeContent: input.pdfActiveContent }]);
    const { document, created } = await this.documents.accept(company, input, credentialOf(principal, requestIdOf(req)));
    const location = `/v2/documents/doc-${document.id}`;
    if (created) res.setHeader('Location', location);
    else res.status(200).setHeader('Content-Location', location);
    return { document: serializeDocument(document, company.timeZone) };
  }

  @Get()
  @ApiDoc('List pushed documents', 'The company’s pushed documents, oldest first, filtered by status, type and external_id.')
  @ApiPaged()
  @ApiQuery({ name: 'status', required: false, enum: DOCUMENT_STATUSES })
  @ApiQuery({ name: 'document_type', required: false, enum: DOCUMENT_TYPES })
  @ApiQuery({ name: 'external_id', required: false, description: 'case-insensitive' })
  @ApiOk(PushDocumentListSchema, 'The company’s pushed documents, oldest first')
  @ApiProblems(400, 401, 429)
  async list(@CurrentCompany() company: CompanyContext, @Pagination() page: PageRequest, @Query() query: Record<string, unknown>) {
    const { documents, total } = await this.documents.list(company, parseDocumentFilters(query), page);
    return { documents: documents.map((d) => serializeDocument(d, company.timeZone)), meta: pageMeta(page, total) };
  }

  @Get(':id')
  @ApiDoc('Get a pushed document', 'A pushed document with its status, attempts, last error and the record it produced.')
  @ApiOk(PushDocumentResponseSchema, 'Status, attempts, the last error and the record it produced')
  @ApiProblems(401, 404, 429)
  async get(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    return { document: serializeDocument(await this.documents.get(company, id), company.timeZone) };
  }
}
