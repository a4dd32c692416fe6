// The dunning runs: the history (every run with its date, trigger, counts, fees and warnings), one run
// with the invoices it touched, and "run now" — the same service as POST /api/v1/dunning_runs, recorded
// with the trigger "web".
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { parseCalendarDate, todayIn } from '../../common/calendar-date.js';
import { toPublicId } from '../../common/ids.js';
import { DunningService } from '../../dunning/dunning.service.js';
import { DunningPages, refusalOf, text } from './dunning-pages.js';
import { DunningWebRepository } from './dunning-web.repository.js';
import { RunPage, RunsPage } from './views/runs.js';

/** Runs per page of the history. */
export const RUNS_PER_PAGE = 25;

@Public()
@ApiExcludeController()
@Controller('dunning/runs')
export class RunsController {
  constructor(
    private readonly dunning: DunningPages,
    private readonly service: DunningService,
    private readonly repository: DunningWebRepository,
  ) {}

  @Get()
  async list(@Query('page') pageParam: unknown, @Req() req: Request, @Res() res: Response) {
    await this.dunning.signedIn(req, res, async ({ company, page }) => {
      const number = Math.max(1, Math.min(10_000, Number.parseInt(text(pageParam), 10) || 1));
      const { runs, total } = await this.service.listRuns(company, {
        page: number,
        perPage: RUNS_PER_PAGE,
        offset: (number - 1) * RUNS_PER_PAGE,
      });
      const pages = Math.max(1, Math.ceil(total / RUNS_PER_PAGE));
      await this.dunning.send(res, 200, RunsPage({ page, runs, current: number, pages }));
    });
  }

  @Post()
  @HttpCode(200)
  async start(@Body() body: Record<string, unknown>, @Req() req: Request, @Res() res: Response) {
    await this.dunning.signedIn(req, res, async ({ company, page, user }) => {
      const raw = text(body?.date).trim();
      const date = raw ? parseCalendarDate(raw) : undefined;
      const { t } = page.lang;
      const refuse = async (message: string, status: number) => {
        const { runs, total } = await this.service.listRuns(company, { page: 1, perPage: RUNS_PER_PAGE, offset: 0 });
        const pages = Math.max(1, Math.ceil(total / RUNS_PER_PAGE));
        await this.dunning.send(res, status, RunsPage({ page, runs, current: 1, pages, error: message }));
      };
      if (raw && !date) return refuse(t('dunning.workbench.badDate'), 400);
      try {
        const run = await this.service.startRun(company, date === todayIn(user.timeZone) ? undefined : date, 'web');
        res.redirect(303, `/dunning/runs/${toPublicId('run', run.id)}?${run.repeated ? 'repeated' : 'started'}=1`);
      } catch (error) {
        const refusal = refusalOf(error);
        return refuse(t('dunning.workbench.refused', { message: Object.values(refusal.fields)[0] ?? refusal.message }), refusal.status);
      }
    });
  }

  @Get(':id')
  async one(@Param('id') id: string, @Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response) {
    await this.dunning.signedIn(req, res, async ({ company, page }) => {
      const run = await this.service.run(company, id);
      const invoices = await this.repository.touchedBy(company.id, run.id);
      const { t } = page.lang;
      const notice = query.started ? t('dunning.runs.started_ok') : query.repeated ? t('dunning.runs.repeated') : undefined;
      await this.dunning.send(res, 200, RunPage({ page, run, invoices, notice }));
    });
  }
}
