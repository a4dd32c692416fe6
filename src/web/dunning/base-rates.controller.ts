// The base interest rate table (§ 247 BGB, for default interest): the rates known, a banner when the
// current half-year's rate is missing (with the CLI command that adds it), and a form that adds a
// missing half-year's rate under the CLI's own rules (owners only: WebPages.owner on the POST; a member
// sees the table); known rates are corrected with the CLI only.
import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { todayIn } from '../../common/calendar-date.js';
import { BASE_RATE, BASE_RATE_FROM, halfYearStart, normalizeRate } from '../../dunning/base-rates.repository.js';
import { DunningPages, type FieldErrors, type Signed, text } from './dunning-pages.js';
import { DunningWebRepository } from './dunning-web.repository.js';
import { BaseRatesPage } from './views/base-rates.js';

@Public()
@ApiExcludeController()
@Controller('dunning/base-rates')
export class BaseRatesController {
  constructor(
    private readonly dunning: DunningPages,
    private readonly repository: DunningWebRepository,
  ) {}

  @Get()
  async table(@Query('added') added: unknown, @Req() req: Request, @Res() res: Response) {
    await this.dunning.signedIn(req, res, async (signed) => {
      const notice =
        typeof added === 'string' && BASE_RATE_FROM.test(added)
          ? signed.page.lang.t('dunning.baseRates.added', { date: signed.page.lang.date(added) })
          : undefined;
      await this.render(signed, res, 200, {}, {}, notice);
    });
  }

  @Post()
  @HttpCode(200)
  async add(@Body() body: Record<string, unknown>, @Req() req: Request, @Res() res: Response) {
    if (!(await this.dunning.pages.owner(req, res))) return;
    await this.dunning.signedIn(req, res, async (signed) => {
      const { t } = signed.page.lang;
      const form = { valid_from: text(body?.valid_from).trim(), rate: normalizeRate(text(body?.rate)) };
      const errors: FieldErrors = {};
      if (!BASE_RATE_FROM.test(form.valid_from)) errors.valid_from = t('dunning.baseRates.badFrom');
      if (!BASE_RATE.test(form.rate)) errors.rate = t('dunning.baseRates.badRate');
      if (Object.keys(errors).length) return this.render(signed, res, 422, form, errors);
      if (!(await this.repository.addBaseRate(form.valid_from, form.rate))) {
        return this.render(signed, res, 409, form, { valid_from: t('dunning.baseRates.exists') });
      }
      res.redirect(303, `/dunning/base-rates?added=${form.valid_from}`);
    });
  }

  private async render(signed: Signed, res: Response, status: number, form: Record<string, string>, errors: FieldErrors, notice?: string) {
    const rates = await this.repository.baseRates();
    const current = halfYearStart(todayIn(signed.user.timeZone));
    const missing = rates.some((rate) => rate.validFrom === current) ? undefined : current;
    const values = { valid_from: form.valid_from ?? missing ?? '', rate: form.rate ?? '' };
    const readOnly = signed.user.role !== 'owner';
    await this.dunning.send(res, status, BaseRatesPage({ page: signed.page, rates, missing, values, errors, notice, readOnly }));
  }
}
