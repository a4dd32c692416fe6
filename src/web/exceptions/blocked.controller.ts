// /exceptions/blocked: the open invoices the dunning run skips, with the block's reason and end date.
import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { todayIn } from '../../common/calendar-date.js';
import { pageMeta } from '../../common/pagination.js';
import { ExceptionPages, pageOf } from './exception-pages.js';
import { ExceptionsRepository } from './exceptions.repository.js';
import { BlockedPage } from './views/blocked-page.js';

@Public()
@ApiExcludeController()
@Controller('exceptions/blocked')
export class BlockedPagesController {
  constructor(
    private readonly frame: ExceptionPages,
    private readonly repository: ExceptionsRepository,
  ) {}

  @Get()
  async list(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response) {
    await this.frame.run(req, res, async (user, page) => {
      const bad: string[] = [];
      const request = pageOf(query, bad);
      const { invoices, total } = await this.repository.blocked(user.companyId, todayIn(user.timeZone), request);
      const notices = bad.length ? [{ key: 'exceptions.badFilter', values: { fields: bad.join(', ') }, error: true }] : [];
      return { status: bad.length ? 400 : 200, html: BlockedPage({ page, invoices, meta: pageMeta(request, total), notices }) };
    });
  }
}
