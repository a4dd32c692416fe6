// The shipping settings as a form (owners only): every field of PATCH /api/v1/shipping_settings,
// checked by the API's own DTO and validation pipe (its messages beside the fields), stored by the
// same service.
import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { createValidationPipe } from '../../common/validation.js';
import { UpdateShippingSettingsDto } from '../../shipping/settings/shipping-settings.dto.js';
import { refusalOf, text } from '../dunning/dunning-pages.js';
import { companyOf, WebPages } from '../web-pages.js';
import { formValuesOf, ShippingSettingsView } from './shipping-settings.view.js';

const pipe = createValidationPipe();
const NOTICES: Record<string, string> = { saved: 'settings.saved', uploaded: 'settings.logo.uploaded', removed: 'settings.logo.removed' };

@Public()
@ApiExcludeController()
@Controller('settings/shipping')
export class ShippingSettingsController {
  constructor(
    private readonly pages: WebPages,
    private readonly view: ShippingSettingsView,
  ) {}

  @Get()
  async form(@Query('done') done: unknown, @Req() req: Request, @Res() res: Response) {
    const user = await this.pages.owner(req, res);
    if (!user) return;
    const page = this.pages.context(req, res, user);
    const notice = NOTICES[text(done)];
    await this.view.send(res, 200, companyOf(user), page, { notice: notice && page.lang.t(notice) });
  }

  @Post()
  @HttpCode(200)
  async save(@Body() body: Record<string, unknown> | undefined, @Req() req: Request, @Res() res: Response) {
    const user = await this.pages.owner(req, res);
    if (!user) return;
    const form: Record<string, unknown> = { ...(body ?? {}) };
    delete form._csrf;
    // The textarea holds one managing director per line; the API takes them as a list.
    if (typeof form.managing_directors === 'string') form.managing_directors = form.managing_directors.split(/\r?\n/);
    try {
      const dto = (await pipe.transform(form, { type: 'body', metatype: UpdateShippingSettingsDto })) as UpdateShippingSettingsDto;
      await this.view.service.update(companyOf(user), dto);
    } catch (error) {
      const refusal = refusalOf(error);
      const page = this.pages.context(req, res, user);
      const errors = Object.keys(refusal.fields).length ? refusal.fields : { _form: refusal.message };
      return this.view.send(res, 422, companyOf(user), page, {
        values: formValuesOf(form),
        errors,
        error: page.lang.t('settings.invalid'),
      });
    }
    res.redirect(303, '/settings/shipping?done=saved');
  }
}
