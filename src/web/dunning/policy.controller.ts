// The dunning policy as a form: every field of PUT /api/v1/dunning_policy, checked by the API's own DTO
// and validation pipe (its messages beside the fields, in the page's language), stored by the same service. Only
// owners change it (WebPages.owner on the POST); a member sees the policy without a form.
import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { createValidationPipe } from '../../common/validation.js';
import { DunningPolicyDto } from '../../dunning/dto/dunning-policy.dto.js';
import { serializePolicy } from '../../dunning/dunning.serializer.js';
import { DunningService } from '../../dunning/dunning.service.js';
import { DunningPages, refusalOf } from './dunning-pages.js';
import { policyFieldErrors } from './policy-errors.js';
import { PolicyPage, type PolicyValues } from './views/policy.js';

const pipe = createValidationPipe();

@Public()
@ApiExcludeController()
@Controller('dunning/policy')
export class PolicyController {
  constructor(
    private readonly dunning: DunningPages,
    private readonly service: DunningService,
  ) {}

  @Get()
  async form(@Query('saved') saved: unknown, @Req() req: Request, @Res() res: Response) {
    await this.dunning.signedIn(req, res, async ({ user, company, page }) => {
      const values = valuesOf(serializePolicy(await this.service.policy(company)).dunning_policy);
      const notice = saved ? page.lang.t('dunning.policy.saved') : undefined;
      await this.dunning.send(res, 200, PolicyPage({ page, values, errors: {}, notice, readOnly: user.role !== 'owner' }));
    });
  }

  @Post()
  @HttpCode(200)
  async save(@Body() body: Record<string, unknown>, @Req() req: Request, @Res() res: Response) {
    if (!(await this.dunning.pages.owner(req, res))) return;
    await this.dunning.signedIn(req, res, async ({ company, page }) => {
      const form = { ...(body ?? {}) };
      delete form._csrf;
      try {
        const dto = (await pipe.transform(form, { type: 'body', metatype: DunningPolicyDto })) as DunningPolicyDto;
        await this.service.replacePolicy(company, dto);
      } catch (error) {
        const refusal = refusalOf(error);
        const errors = Object.keys(refusal.fields).length ? policyFieldErrors(page.lang, refusal.fields) : { _form: refusal.message };
        return this.dunning.send(
          res,
          422,
          PolicyPage({ page, values: valuesOf(form), errors, error: page.lang.t('dunning.policy.invalid') }),
        );
      }
      res.redirect(303, '/dunning/policy?saved=1');
    });
  }
}

/** The form's values by field name (`levels[1][fee]`), from the serialized policy or from a submitted form. */
function valuesOf(source: Record<string, unknown>): PolicyValues {
  const values: PolicyValues = {};
  const put = (name: string, value: unknown) => {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') values[name] = String(value);
  };
  for (const [key, value] of Object.entries(source)) {
    if (key !== 'levels') put(key, value);
  }
  const levels = Array.isArray(source.levels) ? source.levels : [];
  levels.slice(0, 3).forEach((level: unknown, i) => {
    if (level && typeof level === 'object') for (const [key, value] of Object.entries(level)) put(`levels[${i}][${key}]`, value);
  });
  return values;
}
