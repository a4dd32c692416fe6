// /push/documents, /push/documents/<id> and /push/audit-log: the pushed documents and their audit log,
// read through the service of GET /v2/documents and GET /v2/audit_log with the same filters and pages.
import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { pageMeta } from '../../common/pagination.js';
import { PushDocumentsService } from '../../push/intake/push-documents.service.js';
import { badFilterNotices, ExceptionPages, pageOf } from '../exceptions/exception-pages.js';
import { companyOf } from '../web-pages.js';
import { auditFilters, documentFilters } from './push-page-filters.js';
import { AuditLogPage } from './views/audit-log-page.js';
import { DocumentPage } from './views/document-page.js';
import { DocumentsPage } from './views/documents-page.js';

/** A document page shows this many of its steps (a document has a handful; a storm of re-pushes more). */
const DOCUMENT_STEPS = 100;

@Public()
@ApiExcludeController()
@Controller('push')
export class PushPagesController {
  constructor(
    private readonly frame: ExceptionPages,
    private readonly documents: PushDocumentsService,
  ) {}

  @Get('documents')
  async list(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response) {
    await this.frame.run(req, res, async (user, page) => {
      const bad: string[] = [];
      const request = pageOf(query, bad);
      const { filters, form } = documentFilters(query, bad);
      const { documents, total } = await this.documents.list(companyOf(user), filters, request);
      const notices = badFilterNotices(bad, 'push.badFilter');
      return {
        status: bad.length ? 400 : 200,
        html: DocumentsPage({ page, props: { documents, meta: pageMeta(request, total), form, notices } }),
      };
    });
  }

  @Get('documents/:id')
  async document(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    await this.frame.run(req, res, async (user, page) => {
      const company = companyOf(user);
      const document = await this.documents.get(company, id);
      const { entries } = await this.documents.auditLog(
        company,
        { documentId: document.id },
        { page: 1, perPage: DOCUMENT_STEPS, offset: 0 },
      );
      return { status: 200, html: DocumentPage({ page, document, entries, notices: this.frame.takeNotices(req) }) };
    });
  }

  @Get('audit-log')
  async auditLog(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response) {
    await this.frame.run(req, res, async (user, page) => {
      const bad: string[] = [];
      const request = pageOf(query, bad);
      const { filters, form } = auditFilters(query, user.timeZone, bad);
      const { entries, total } = await this.documents.auditLog(companyOf(user), filters, request);
      const notices = badFilterNotices(bad, 'push.badFilter');
      return {
        status: bad.length ? 400 : 200,
        html: AuditLogPage({ page, props: { entries, meta: pageMeta(request, total), form, notices } }),
      };
    });
  }
}
