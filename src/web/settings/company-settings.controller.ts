// The company settings (owners only): name, time zone and contact e-mail, checked by CompanyProfileDto
// through the API's validation pipe and stored by CompaniesService. The page header shows the new name
// at once: every page loads the signed-in user with the company's name afresh.
import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { CompaniesService } from '../../companies/companies.service.js';
import { CompanyProfileDto } from '../../companies/dto/company-profile.dto.js';
import { createValidationPipe } from '../../common/validation.js';
import { refusalOf } from '../dunning/dunning-pages.js';
import { companyOf, WebPages } from '../web-pages.js';
import { formValuesOf } from './shipping-settings.view.js';
import { CompanySettingsPage } from './views/company-settings-page.js';

const pipe = createValidationPipe();

@Public()
@ApiExcludeController()
@Controller('settings/company')
export class CompanySettingsController {
  constructor(
    private readonly pages: WebPages,
    private readonly companies: CompaniesService,
  ) {}

  @Get()
  async form(@Query('done') done: unknown, @Req() req: Request, @Res() res: Response) {
    const user = await this.pages.owner(req, res);
    if (!user) return;
    const page = this.pages.context(req, res, user);
    const company = await this.companies.profile(companyOf(user));
    const values = { name: company.name, time_zone: company.timeZone, contact_email: company.contactEmail ?? '' };
    const notice = done === 'saved' ? page.lang.t('settings.saved') : undefined;
    await this.pages.send(res, 200, CompanySettingsPage({ page, values, errors: {}, notice }));
  }

  @Post()
  @HttpCode(200)
  async save(@Body() body: Record<string, unknown> | undefined, @Req() req: Request, @Res() res: Response) {
    const user = await this.pages.owner(req, res);
    if (!user) return;
    const form: Record<string, unknown> = { ...(body ?? {}) };
    delete form._csrf;
    try {
      const dto = (await pipe.transform(form, { type: 'body', metatype: CompanyProfileDto })) as CompanyProfileDto;
      await this.companies.updateProfile(companyOf(user), dto);
    } catch (error) {
      const refusal = refusalOf(error);
      const page = this.pages.context(req, res, user);
      const errors = Object.keys(refusal.fields).length ? refusal.fields : { _form: refusal.message };
      const html = CompanySettingsPage({ page, values: formValuesOf(form), errors, error: page.lang.t('settings.invalid') });
      return this.pages.send(res, 422, html);
    }
    res.redirect(303, '/settings/company?done=saved');
  }
}
