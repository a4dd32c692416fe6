// The dunning workbench: the proposal of a business date, approving and rejecting what waits for
// approval, and the preview of a waiting reminder (its letter as PDF, its e-mail). The same services
// as GET /api/v1/dunning/proposal and GET/POST /api/v1/dunning/approvals(/reject).
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { parseCalendarDate, todayIn } from '../../common/calendar-date.js';
import { parsePublicId } from '../../common/ids.js';
import { ApprovalsService } from '../../dunning/approvals/approvals.service.js';
import { MessagePage } from '../views/simple-pages.js';
import { DunningPages, type FieldErrors, list, refusalOf, type Signed, text } from './dunning-pages.js';
import { ReminderPreviews } from './reminder-preview.service.js';
import { PreviewPage } from './views/preview.js';
import { WorkbenchPage, type WorkbenchQuery } from './views/workbench.js';
import { type WorkbenchFilters, WorkbenchService } from './workbench.service.js';

type Form = Record<string, unknown>;

@Public()
@ApiExcludeController()
@Controller('dunning')
export class WorkbenchController {
  constructor(
    private readonly dunning: DunningPages,
    private readonly workbench: WorkbenchService,
    private readonly approvals: ApprovalsService,
    private readonly previews: ReminderPreviews,
  ) {}

  @Get()
  async page(@Query() query: Form, @Req() req: Request, @Res() res: Response) {
    await this.dunning.signedIn(req, res, (signed) => {
      const notice = noticeOf(signed, query);
      return this.render(signed, res, queryOf(query), { notice });
    });
  }

  /** Approve the selected, approve all shown, or reject the selected: one form, the button says which. */
  @Post('decisions')
  @HttpCode(200)
  async decide(@Body() body: Form, @Req() req: Request, @Res() res: Response) {
    await this.dunning.signedIn(req, res, async (signed) => {
      const query = queryOf(body);
      const { filters, errors } = filtersOf(signed, query);
      if (Object.keys(errors).length) return this.render(signed, res, query, { errors, status: 400 });
      const decision = text(body.decision);
      const ids = decision === 'all' ? list(body.shown) : list(body.ids);
      const { t } = signed.page.lang;
      if (ids.length === 0 || !['approve', 'all', 'reject'].includes(decision)) {
        return this.render(signed, res, query, { error: t('dunning.workbench.noneSelected'), status: 422 });
      }
      const actor = { type: 'user' as const, id: signed.user.id };
      let done: Record<string, string>;
      try {
        if (decision === 'reject') {
          const rejected = await this.approvals.reject(signed.company, { ids, reason: text(body.reason) || null }, actor);
          done = { rejected: String(rejected.length) };
        } else {
          const { approved, steppedBack } = await this.approvals.approve(signed.company, { ids, date: filters.date }, actor);
          done = { approved: String(approved.length), stepped_back: String(steppedBack.length) };
        }
      } catch (error) {
        const refusal = refusalOf(error);
        if (refusal.status === 404) return this.dunning.send(res, 404, MessagePage({ page: signed.page, kind: 'notFound' }));
        return this.render(signed, res, query, {
          error: t('dunning.workbench.refused', { message: refusal.message }),
          status: refusal.status,
        });
      }
      const back = new URLSearchParams({ ...compact(query), ...done });
      res.redirect(303, `/dunning?${back.toString()}`);
    });
  }

  @Get('preview/:id')
  async preview(@Param('id') id: string, @Query() query: Form, @Req() req: Request, @Res() res: Response) {
    await this.dunning.signedIn(req, res, async (signed) => {
      const { filters } = filtersOf(signed, queryOf(query));
      const preview = await this.previews.preview(signed.company, id, filters.date);
      const date = text(query.date);
      const back = date ? `?date=${encodeURIComponent(date)}` : '';
      await this.dunning.send(res, 200, PreviewPage({ page: signed.page, preview, invoiceId: id, query: back }));
    });
  }

  @Get('preview/:id/letter.pdf')
  async letter(@Param('id') id: string, @Query() query: Form, @Req() req: Request, @Res() res: Response) {
    await this.dunning.signedIn(req, res, async (signed) => {
      const { filters } = filtersOf(signed, queryOf(query));
      const { letter } = await this.previews.preview(signed.company, id, filters.date);
      res
        .status(200)
        .type('application/pdf')
        .setHeader('Cache-Control', 'no-store')
        .setHeader('Content-Disposition', `inline; filename="${letter.filename}"`)
        .send(letter.pdf);
    });
  }

  private async render(
    signed: Signed,
    res: Response,
    query: WorkbenchQuery,
    extra: { notice?: string; error?: string; errors?: FieldErrors; status?: number },
  ): Promise<void> {
    const { filters, errors } = filtersOf(signed, query);
    Object.assign(errors, extra.errors);
    let data;
    let status = extra.status ?? (Object.keys(errors).length ? 400 : 200);
    if (!errors.date) {
      try {
        data = await this.workbench.load(signed.company, filters);
      } catch (error) {
        const refusal = refusalOf(error);
        Object.assign(errors, refusal.fields);
        status = refusal.status;
      }
    }
    const props = { query, data, errors, notice: extra.notice, error: extra.error };
    await this.dunning.send(res, status, WorkbenchPage({ page: signed.page, props }));
  }
}

function queryOf(source: Form): WorkbenchQuery {
  return { date: text(source.date).trim(), stage: text(source.stage), customer: text(source.customer).trim() };
}

function compact(query: WorkbenchQuery): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== ''));
}

/** The services' filters from the page's query, and what of it was not understood (beside the field). */
function filtersOf(signed: Signed, query: WorkbenchQuery): { filters: WorkbenchFilters; errors: FieldErrors } {
  const { t } = signed.page.lang;
  const errors: FieldErrors = {};
  const filters: WorkbenchFilters = {};
  if (query.date) {
    const date = parseCalendarDate(query.date);
    if (!date) errors.date = t('dunning.workbench.badDate');
    // Today is the default: named explicitly only for another day (which production refuses, beside the field).
    else if (date !== todayIn(signed.user.timeZone)) filters.date = date;
  }
  if (query.stage) {
    if (['1', '2', '3'].includes(query.stage)) filters.stage = Number(query.stage) as 1 | 2 | 3;
    else errors.stage = t('dunning.workbench.badFilter');
  }
  if (query.customer) {
    const id = parsePublicId('cus', query.customer);
    if (id) filters.customerId = id;
    else errors.customer = t('dunning.workbench.badFilter');
  }
  return { filters, errors };
}

function noticeOf(signed: Signed, query: Form): string | undefined {
  const { t } = signed.page.lang;
  const count = (key: string) => Number.parseInt(text(query[key]), 10);
  const lines: string[] = [];
  if (count('approved') >= 0) lines.push(t('dunning.workbench.approved', { count: count('approved') }));
  if (count('stepped_back') > 0) lines.push(t('dunning.workbench.steppedBack', { count: count('stepped_back') }));
  if (count('rejected') >= 0) lines.push(t('dunning.workbench.rejected', { count: count('rejected') }));
  return lines.length ? lines.join(' ') : undefined;
}
