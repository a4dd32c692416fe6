// "Jetzt abrufen" (owners) and a pull run's page, whose figures update while the run goes on: the
// progress fragment is polled by htmx and answers without its trigger once the run has ended. The
// figures are the API's own (ErpPullService.get, serializePullRun), as GET …/pulls/:runId reports them.
import { Body, Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { toPublicId } from '../../common/ids.js';
import { ErpConnectionsService } from '../../erp-pull/connections/erp-connections.service.js';
import { ErpPullService } from '../../erp-pull/run/erp-pull.service.js';
import { serializePullRun } from '../../erp-pull/run/pull-run.serializer.js';
import { refusalOf } from '../dunning/dunning-pages.js';
import { ExceptionPages } from '../exceptions/exception-pages.js';
import { companyOf } from '../web-pages.js';
import { asOwner } from './erp-pages.js';
import { RunPage } from './views/run-page.js';
import { RunProgress } from './views/run-parts.js';

@Public()
@ApiExcludeController()
@Controller('integrations/erp/:id/pulls')
export class PullsController {
  constructor(
    private readonly frame: ExceptionPages,
    private readonly connections: ErpConnectionsService,
    private readonly pulls: ErpPullService,
  ) {}

  @Post()
  async start(@Param('id') id: string, @Body() body: Record<string, unknown>, @Req() req: Request, @Res() res: Response) {
    await asOwner(this.frame, req, res, async (user) => {
      const mode = body?.mode === 'full' ? 'full' : 'incremental';
      try {
        const run = await this.pulls.startNow(companyOf(user), id, mode);
        return this.frame.redirect(req, res, `/integrations/erp/${id}/pulls/${toPublicId('pul', run.id)}`, [
          { key: 'erp.connection.started' },
        ]);
      } catch (error) {
        const refusal = refusalOf(error);
        if (refusal.status === 404) throw error;
        return this.frame.redirect(req, res, `/integrations/erp/${id}`, [
          { key: 'erp.connection.refused', values: { reason: refusal.message }, error: true },
        ]);
      }
    });
  }

  @Get(':runId')
  async show(@Param('id') id: string, @Param('runId') runId: string, @Req() req: Request, @Res() res: Response) {
    await this.frame.run(req, res, async (user, page) => {
      const company = companyOf(user);
      const connection = await this.connections.get(company, id);
      const run = await this.pulls.get(company, id, runId);
      const html = RunPage({
        page,
        connection: { id, name: connection.name },
        run: serializePullRun(run, company.timeZone),
        queuedAt: run.queuedAt,
        notices: this.frame.takeNotices(req),
      });
      return { status: 200, html };
    });
  }

  @Get(':runId/progress')
  async progress(@Param('id') id: string, @Param('runId') runId: string, @Req() req: Request, @Res() res: Response) {
    await this.frame.run(req, res, async (user, page) => {
      const company = companyOf(user);
      const run = serializePullRun(await this.pulls.get(company, id, runId), company.timeZone);
      return { status: 200, html: RunProgress({ page, run, url: `/integrations/erp/${id}/pulls/${run.id}/progress` }) };
    });
  }
}
