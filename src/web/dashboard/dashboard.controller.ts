// GET /dashboard: the signed-in user's figures and what needs them, scoped by their company.
import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { todayIn } from '../../common/calendar-date.js';
import { WebPages } from '../web-pages.js';
import { DashboardRepository } from './dashboard.repository.js';
import { DashboardPage } from './dashboard.js';
import { NeedsYouRepository } from './needs-you.repository.js';

@Public()
@ApiExcludeController()
@Controller('dashboard')
export class DashboardController {
  constructor(
    private readonly pages: WebPages,
    private readonly figures: DashboardRepository,
    private readonly needsYou: NeedsYouRepository,
  ) {}

  @Get()
  async dashboardPage(@Req() req: Request, @Res() res: Response) {
    const user = await this.pages.user(req);
    if (!user) return this.pages.signInRedirect(req, res);
    const page = this.pages.context(req, res, user);
    const today = todayIn(user.timeZone);
    const [figures, needsYou] = await this.pages.reads(req, () =>
      Promise.all([this.figures.figures(user.companyId, today), this.needsYou.counts(user.companyId, today)]),
    );
    await this.pages.send(res, 200, DashboardPage({ page, figures, needsYou }));
  }
}
