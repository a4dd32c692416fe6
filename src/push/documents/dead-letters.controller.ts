// /v2/dead_letters: documents whose every attempt failed. Replay queues one again; DELETE discards it
// with a reason. Push credentials and the REST API token are accepted.
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { DeadLetterListSchema, PushDocumentResponseSchema } from './push-document.serializer.js';
import { ApiDoc, ApiNoContent, ApiOk, ApiPaged, ApiProblems } from '../../openapi/responses.js';
import { schemaRef } from '../../openapi/schema.js';
import type { Request } from 'express';
import { Authenticated, CurrentCompany, CurrentPrincipal } from '../../auth/auth.decorators.js';
import type { CompanyContext, Principal } from '../../auth/principal.js';
import { validationFailed } from '../../common/errors.js';
import { type PageRequest, pageMeta, Pagination } from '../../common/pagination.js';
import { requestIdOf } from '../../logging/logger.js';
import { DiscardDto } from '../dto/discard.dto.js';
import { serializeDocument } from './push-document.serializer.js';
import { credentialOf, PushDocumentsService } from '../intake/push-documents.service.js';
import { parseDocumentFilters } from './push-filters.js';

@ApiTags('push')
@Authenticated('apikey', 'bearer', 'token')
@Controller('v2/dead_letters')
export class DeadLettersController {
  constructor(private readonly documents: PushDocumentsService) {}

  @Get()
  @ApiDoc('List dead letters', 'Pushed documents whose processing failed for good and wait for a decision: replay or discard.')
  @ApiPaged()
  @ApiOk(DeadLetterListSchema)
  @ApiProblems(400, 401, 429)
  async list(@CurrentCompany() company: CompanyContext, @Pagination() page: PageRequest, @Query() query: Record<string, unknown>) {
    const { documents, total } = await this.documents.list(company, parseDocumentFilters(query, 'dead_lettered'), page);
    return { dead_letters: documents.map((d) => serializeDocument(d, company.timeZone)), meta: pageMeta(page, total) };
  }

  @Post(':id/replay')
  @ApiDoc('Replay a dead letter', 'Queues the document again with fresh attempts; an audit row names who replayed it.')
  @HttpCode(202)
  @ApiResponse({
    status: 202,
    schema: schemaRef(PushDocumentResponseSchema),
    description: 'Queued again with fresh attempts (a `replayed` audit row names who)',
  })
  @ApiProblems(401, 404, 429)
  async replay(
    @CurrentCompany() company: CompanyContext,
    @CurrentPrincipal() principal: Principal,
    @Req() req: Request,
    @Param('id') id: string,
  ) {
    const document = await this.documents.replay(company, id, credentialOf(principal, requestIdOf(req)));
    return { document: serializeDocument(document, company.timeZone) };
  }

  /** The reason comes as JSON/form field `reason` or as the query parameter `reason`. */
  @Delete(':id')
  @ApiDoc('Discard a dead letter', 'Gives up the document; `reason` is required and kept in the audit log.')
  @HttpCode(204)
  @ApiQuery({ name: 'reason', required: false, description: 'Why the document is given up (or `reason` in a JSON or form body); required' })
  @ApiNoContent('Discarded (a `discarded` audit row keeps the reason)')
  @ApiProblems(401, 404, 422, 429)
  async discard(
    @CurrentCompany() company: CompanyContext,
    @CurrentPrincipal() principal: Principal,
    @Req() req: Request,
    @Param('id') id: string,
    @Body() body: DiscardDto,
    @Query('reason') queryReason?: string,
  ) {
    const reason = body?.reason ?? (typeof queryReason === 'string' ? queryReason.trim() : '');
    if (!reason) throw validationFailed([{ field: 'reason', message: 'reason is required: say why the document is discarded' }]);
    await this.documents.discard(company, id, reason.slice(0, 2000), credentialOf(principal, requestIdOf(req)));
  }
}
