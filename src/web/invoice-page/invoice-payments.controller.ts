// Payments on the invoice page: record one (the form comes back with the API's refusals beside the
// fields), and delete one after a confirmation that names what it does to the open amount.
import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { AppError } from '../../common/errors.js';
import { parsePublicId } from '../../common/ids.js';
import type { PageContext } from '../views/layout.js';
import { WebPages } from '../web-pages.js';
import type { SignedInUser } from '../web-users.repository.js';
import { formValues } from './form-input.js';
import { InvoicePageService, PAYMENT_FIELDS } from './invoice-page.service.js';
import { asSignedIn, doneRedirect } from './invoice-web.js';
import { PaymentDeletePage } from './views/confirm-pages.js';
import type { FormState } from './views/form-parts.js';
import { InvoicePage } from './views/invoice-page.js';

@Public()
@ApiExcludeController()
@Controller('invoices/:id/payments')
export class InvoicePaymentsController {
  constructor(
    private readonly pages: WebPages,
    private readonly invoices: InvoicePageService,
  ) {}

  @Post()
  @HttpCode(200)
  async add(@Param('id') id: string, @Body() body: unknown, @Req() req: Request, @Res() res: Response) {
    await asSignedIn(this.pages, req, res, async (user, page) => {
      const values = formValues(body, PAYMENT_FIELDS);
      try {
        const outcome = await this.invoices.addPayment(user, id, values);
        if (outcome.ok) return await doneRedirect(req, res, id, { key: 'paymentAdded', amount: outcome.amount });
        await this.formAgain(user, page, res, id, { values, errors: outcome.errors }, 422);
      } catch (error) {
        // A refusal of the service that is no field's (a closed invoice): the form again, nothing changed.
        if (!(error instanceof AppError) || error.status === 404 || error.status >= 500) throw error;
        const field = error.errors[0]?.field ?? 'amount';
        await this.formAgain(user, page, res, id, { values, errors: { [field]: error.message } }, error.status);
      }
    });
  }

  @Get(':paymentId/delete')
  async confirmDelete(@Param('id') id: string, @Param('paymentId') paymentId: string, @Req() req: Request, @Res() res: Response) {
    await asSignedIn(this.pages, req, res, async (user, page) => {
      const { wire, payment } = await this.payment(user, id, paymentId);
      await this.pages.send(res, 200, PaymentDeletePage({ page, props: { wire, payment } }));
    });
  }

  @Post(':paymentId/delete')
  @HttpCode(200)
  async delete(@Param('id') id: string, @Param('paymentId') paymentId: string, @Req() req: Request, @Res() res: Response) {
    await asSignedIn(this.pages, req, res, async (user, page) => {
      const { wire, payment } = await this.payment(user, id, paymentId);
      try {
        await this.invoices.deletePayment(user, id, paymentId);
      } catch (error) {
        if (!(error instanceof AppError) || error.status === 404 || error.status >= 500) throw error;
        return this.pages.send(res, error.status, PaymentDeletePage({ page, props: { wire, payment, refusal: error } }));
      }
      await doneRedirect(req, res, id, { key: 'paymentDeleted', amount: payment.amount });
    });
  }

  /** The payment of the invoice, or the 404 page (another invoice's payment names nothing here). */
  private async payment(user: SignedInUser, id: string, paymentId: string) {
    const { view, wire } = await this.invoices.invoice(user, id);
    const uuid = parsePublicId('pay', paymentId);
    const payment = view.payments.find((p) => p.id === uuid);
    if (!payment) throw new AppError('payment.not_found', `Payment ${paymentId} was not found on this invoice`);
    return { wire, payment };
  }

  private async formAgain(user: SignedInUser, page: PageContext, res: Response, id: string, payment: FormState, status: number) {
    const props = await this.invoices.page(user, id);
    await this.pages.send(res, status, InvoicePage({ page, props: { ...props, payment } }));
  }
}
