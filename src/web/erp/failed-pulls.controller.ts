// /exceptions/erp-pulls: the connections whose latest pull failed (the dashboard counts the same), each
// with a link to the run's page.
import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { pageMeta } from '../../common/pagination.js';
import { badFilterNotices, ExceptionPages, pageOf } from '../exceptions/exception-pages.js';
import { FailedPullsRepository } from './failed-pulls.repository.js';
import { FailedPullsPage } from './views/failed-pulls-page.js';

@Public()
@ApiExcludeController()
@Controller('exceptions/erp-pulls')
export class FailedPullsController {
  constructor(
    private readonly frame: ExceptionPages,
    private readonly failed: FailedPullsRepository,
  ) {}

  @Get()
  async list(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response) {
    await this.frame.run(req, res, async (user, page) => {
      const bad: string[] = [];
      const request = pageOf(query, bad);
      const { pulls, total } = await this.failed.page(user.companyId, request);
      const notices = badFilterNotices(bad, 'exceptions.badFilter');
      return { status: bad.length ? 400 : 200, html: FailedPullsPage({ page, pulls, meta: pageMeta(request, total), notices }) };
    });
  }
}
