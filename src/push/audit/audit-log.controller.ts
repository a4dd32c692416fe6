// GET /v2/audit_log: the append-only log of every step of every pushed document, filtered by
// document_id, step, document_type, external_id, since and until; oldest first.
import { Controller, Get, Query } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentCompany } from '../../auth/auth.decorators.js';
import type { CompanyContext } from '../../auth/principal.js';
import { type PageRequest, pageMeta, Pagination } from '../../common/pagination.js';
import { DOCUMENT_TYPES } from '../dto/push-document.dto.js';
import { AUDIT_STEPS } from '../push-document.js';
import { serializeAuditEntry } from '../documents/push-document.serializer.js';
import { PushDocumentsService } from '../intake/push-documents.service.js';
import { AuditLogSchema } from '../documents/push-document.serializer.js';
import { ApiDoc, ApiOk, ApiPaged, ApiProblems } from '../../openapi/responses.js';
import { parseAuditFilters } from '../documents/push-filters.js';

@ApiTags('push')
@Authenticated('apikey', 'bearer', 'token')
@Controller('v2/audit_log')
export class AuditLogController {
  constructor(private readonly documents: PushDocumentsService) {}

  @Get()
  @ApiDoc(
    'Read the push audit log',
    'One row per processing step of every pushed document, oldest first, filtered by document, step, type and time.',
  )
  @ApiPaged()
  @ApiOk(AuditLogSchema, 'One row per step of every pushed document, oldest first')
  @ApiProblems(400, 401, 429)
  @ApiQuery({ name: 'document_id', required: false, description: 'doc-…' })
  @ApiQuery({ name: 'step', required: false, enum: AUDIT_STEPS })
  @ApiQuery({ name: 'document_type', required: false, enum: DOCUMENT_TYPES })
  @ApiQuery({ name: 'external_id', required: false })
  @ApiQuery({ name: 'since', required: false, description: 'ISO 8601 date or datetime, inclusive' })
  @ApiQuery({ name: 'until', required: false, description: 'ISO 8601 date or datetime, exclusive' })
  async list(@CurrentCompany() company: CompanyContext, @Pagination() page: PageRequest, @Query() query: Record<string, unknown>) {
    const { entries, total } = await this.documents.auditLog(company, parseAuditFilters(query), page);
    return { audit_log: entries.map((e) => serializeAuditEntry(e, company.timeZone)), meta: pageMeta(page, total) };
  }
}
