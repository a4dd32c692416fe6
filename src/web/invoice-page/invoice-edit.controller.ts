// Editing an invoice from its page: the form of the fields its status still allows (GET, works without
// JavaScript) and its POST (CSRF-checked in web.setup.ts), saved through PATCH's service. Field errors come
// back beside the fields, a refusal of the service above them; nothing changes then.
import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { AppError } from '../../common/errors.js';
import { toPublicId } from '../../common/ids.js';
import type { PageContext } from '../views/layout.js';
import { WebPages } from '../web-pages.js';
import type { SignedInUser } from '../web-users.repository.js';
import { formValues } from './form-input.js';
import { currentValues, EDIT_FIELDS, editable } from './invoice-operations.js';
import { InvoiceOperationsService } from './invoice-operations.service.js';
import { InvoicePageService } from './invoice-page.service.js';
import { asSignedIn, doneRedirect } from './invoice-web.js';
import { EditPage } from './views/edit-page.js';
import type { FormState } from './views/form-parts.js';

@Public()
@ApiExcludeController()
@Controller('invoices/:id/edit')
export class InvoiceEditController {
  constructor(
    private readonly pages: WebPages,
    private readonly invoices: InvoicePageService,
    private readonly operations: InvoiceOperationsService,
  ) {}

  @Get()
  async form(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    await asSignedIn(this.pages, req, res, (user, page) => this.page(user, page, res, id, undefined, 200));
  }

  @Post()
  @HttpCode(200)
  async save(@Param('id') id: string, @Body() body: unknown, @Req() req: Request, @Res() res: Response) {
    await asSignedIn(this.pages, req, res, async (user, page) => {
      const values = formValues(body, EDIT_FIELDS);
      try {
        const outcome = await this.operations.edit(user, id, values, page.lang.locale);
        if (!outcome.ok) return await this.page(user, page, res, id, { values, errors: outcome.errors }, 422);
        await doneRedirect(req, res, id, { key: outcome.changed.length > 0 ? 'edited' : 'unchanged' });
      } catch (error) {
        if (!(error instanceof AppError) || error.status === 404 || error.status >= 500) throw error;
        await this.page(user, page, res, id, { values, errors: {} }, error.status, error);
      }
    });
  }

  private async page(
    user: SignedInUser,
    page: PageContext,
    res: Response,
    id: string,
    posted: FormState | undefined,
    status: number,
    refusal?: AppError,
  ) {
    const { view } = await this.invoices.invoice(user, id);
    const current = currentValues(view.invoice, page.lang.locale);
    const form = posted ?? { values: current, errors: {} };
    const props = {
      view,
      base: `/invoices/${toPublicId('inv', view.invoice.id)}`,
      editable: editable(view.invoice),
      current,
      form,
      refusal,
    };
    await this.pages.send(res, status, EditPage({ page, props }));
  }
}
