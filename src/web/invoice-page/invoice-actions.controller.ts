// The invoice's actions: a confirmation page per action (GET, works without JavaScript) that names the
// consequence, and its POST (CSRF-checked in web.setup.ts) that runs it through the API's services. A
// refusal shows the service's reason on the confirmation page, nothing changed; success goes back (303).
import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { AppError } from '../../common/errors.js';
import type { PageContext } from '../views/layout.js';
import { MessagePage } from '../views/simple-pages.js';
import { WebPages } from '../web-pages.js';
import type { SignedInUser } from '../web-users.repository.js';
import { formValues } from './form-input.js';
import { isOffered, isPageAction, type PageAction } from './invoice-actions.js';
import { ACTION_FIELDS, InvoicePageService } from './invoice-page.service.js';
import { asSignedIn, doneRedirect } from './invoice-web.js';
import { ActionConfirmPage } from './views/confirm-pages.js';
import { EMPTY_FORM, type FormState } from './views/form-parts.js';

@Public()
@ApiExcludeController()
@Controller('invoices/:id/confirm')
export class InvoiceActionsController {
  constructor(
    private readonly pages: WebPages,
    private readonly invoices: InvoicePageService,
  ) {}

  @Get(':action')
  async confirm(@Param('id') id: string, @Param('action') action: string, @Req() req: Request, @Res() res: Response) {
    await asSignedIn(this.pages, req, res, async (user, page) => {
      if (!isPageAction(action)) return this.pages.send(res, 404, MessagePage({ page, kind: 'notFound' }));
      await this.confirmPage(user, page, res, id, action, EMPTY_FORM, 200);
    });
  }

  @Post(':action')
  @HttpCode(200)
  async run(@Param('id') id: string, @Param('action') action: string, @Body() body: unknown, @Req() req: Request, @Res() res: Response) {
    await asSignedIn(this.pages, req, res, async (user, page) => {
      if (!isPageAction(action)) return this.pages.send(res, 404, MessagePage({ page, kind: 'notFound' }));
      const values = formValues(body, ACTION_FIELDS);
      try {
        const outcome = await this.invoices.act(user, id, action, values);
        if (!outcome.ok) return await this.confirmPage(user, page, res, id, action, { values, errors: outcome.errors }, 422);
        // Release of an invoice the service ships: still a draft while shipping runs.
        const key = action === 'release' && outcome.view.invoice.status === 'draft' ? 'releaseShipping' : action;
        await doneRedirect(req, res, id, { key });
      } catch (error) {
        if (!(error instanceof AppError) || error.status === 404 || error.status >= 500) throw error;
        await this.confirmPage(user, page, res, id, action, { values, errors: {} }, error.status, error);
      }
    });
  }

  private async confirmPage(
    user: SignedInUser,
    page: PageContext,
    res: Response,
    id: string,
    action: PageAction,
    form: FormState,
    status: number,
    refusal?: AppError,
  ) {
    const { view, wire } = await this.invoices.invoice(user, id);
    // After a refusal the form stays, so the user sees the reason next to what they asked for.
    const offered = refusal !== undefined || isOffered(action, view.invoice);
    await this.pages.send(res, status, ActionConfirmPage({ page, props: { view, wire, action, offered, form, refusal } }));
  }
}
