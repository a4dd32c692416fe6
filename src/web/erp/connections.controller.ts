// /integrations/erp: the connections (members read them), a connection's page with its pull runs, and the
// owners' actions "Verbindung testen" (the API's probe, every check shown) and delete.
import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { toPublicId } from '../../common/ids.js';
import { pageMeta, parsePageRequest } from '../../common/pagination.js';
import { ErpConnectionsService } from '../../erp-pull/connections/erp-connections.service.js';
import { ErpPullService } from '../../erp-pull/run/erp-pull.service.js';
import { ExceptionPages, pageOf } from '../exceptions/exception-pages.js';
import { companyOf } from '../web-pages.js';
import { asOwner } from './erp-pages.js';
import { ConnectionPage } from './views/connection-page.js';
import { ConnectionsPage } from './views/connections-page.js';
import { ProbePage } from './views/probe-page.js';

/** Enough connections for one page; a company has a handful. */
const ALL_CONNECTIONS = parsePageRequest({ per_page: '100' });
const LAST_RUN = parsePageRequest({ per_page: '1' });

@Public()
@ApiExcludeController()
@Controller('integrations/erp')
export class ConnectionsController {
  constructor(
    private readonly frame: ExceptionPages,
    private readonly connections: ErpConnectionsService,
    private readonly pulls: ErpPullService,
  ) {}

  @Get()
  async list(@Req() req: Request, @Res() res: Response) {
    await this.frame.run(req, res, async (user, page) => {
      const company = companyOf(user);
      const { connections } = await this.connections.list(company, ALL_CONNECTIONS);
      const rows = await Promise.all(
        connections.map(async (connection) => {
          const { runs } = await this.pulls.list(company, toPublicId('erp', connection.id), LAST_RUN);
          return { connection, lastRun: runs[0] };
        }),
      );
      return { status: 200, html: ConnectionsPage({ page, rows, notices: this.frame.takeNotices(req) }) };
    });
  }

  @Get(':id')
  async show(@Param('id') id: string, @Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response) {
    await this.frame.run(req, res, async (user, page) => {
      const company = companyOf(user);
      const connection = await this.connections.get(company, id);
      const request = pageOf(query, []);
      const { runs, total } = await this.pulls.list(company, id, request);
      const notices = this.frame.takeNotices(req);
      return { status: 200, html: ConnectionPage({ page, connection, runs, meta: pageMeta(request, total), notices }) };
    });
  }

  @Post(':id/test')
  @HttpCode(200)
  async test(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    await asOwner(this.frame, req, res, async (user, page) => {
      const company = companyOf(user);
      const connection = await this.connections.get(company, id);
      const result = await this.connections.test(company, id);
      return { status: 200, html: ProbePage({ page, id, name: connection.name, result }) };
    });
  }

  @Post(':id/delete')
  async remove(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    await asOwner(this.frame, req, res, async (user) => {
      const company = companyOf(user);
      const connection = await this.connections.get(company, id);
      await this.connections.remove(company, id);
      return this.frame.redirect(req, res, '/integrations/erp', [{ key: 'erp.form.deleted', values: { name: connection.name } }]);
    });
  }
}
