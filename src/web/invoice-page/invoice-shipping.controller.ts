// Shipping steps from the invoice page: confirm a letter the client posted itself (manual_shipping, the
// invoice or a reminder) and ship a reminder again after a failure, each on a confirmation page (GET,
// works without JavaScript) and its POST (CSRF-checked in web.setup.ts) through the API's ShippingService.
import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { AppError } from '../../common/errors.js';
import { parsePublicId, toPublicId } from '../../common/ids.js';
import type { InvoiceView } from '../../invoices/invoice.serializer.js';
import type { Reminder } from '../../invoices/reminder.entity.js';
import type { PageContext } from '../views/layout.js';
import { WebPages } from '../web-pages.js';
import type { SignedInUser } from '../web-users.repository.js';
import { InvoiceOperationsService } from './invoice-operations.service.js';
import type { ShippingOffers } from './invoice-operations.js';
import { InvoicePageService, type InvoiceWire } from './invoice-page.service.js';
import { asSignedIn, doneRedirect } from './invoice-web.js';
import { ShippingConfirmPage, type ShippingStep } from './views/shipping-confirm.js';

interface Loaded {
  view: InvoiceView;
  wire: InvoiceWire;
  offers: ShippingOffers;
  reminder: Reminder | null;
  /** The page of the invoice, or the reminder's path below it. */
  path: string;
}

@Public()
@ApiExcludeController()
@Controller('invoices/:id')
export class InvoiceShippingController {
  constructor(
    private readonly pages: WebPages,
    private readonly invoices: InvoicePageService,
    private readonly operations: InvoiceOperationsService,
  ) {}

  @Get('confirm_shipping')
  confirmInvoicePage(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.show(req, res, id, null, 'confirmInvoice');
  }

  @Post('confirm_shipping')
  @HttpCode(200)
  confirmInvoice(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.run(req, res, id, null, 'confirmInvoice');
  }

  @Get('reminders/:reminderId/confirm_shipping')
  confirmReminderPage(@Param('id') id: string, @Param('reminderId') reminderId: string, @Req() req: Request, @Res() res: Response) {
    return this.show(req, res, id, reminderId, 'confirmReminder');
  }

  @Post('reminders/:reminderId/confirm_shipping')
  @HttpCode(200)
  confirmReminder(@Param('id') id: string, @Param('reminderId') reminderId: string, @Req() req: Request, @Res() res: Response) {
    return this.run(req, res, id, reminderId, 'confirmReminder');
  }

  @Get('reminders/:reminderId/ship')
  shipAgainPage(@Param('id') id: string, @Param('reminderId') reminderId: string, @Req() req: Request, @Res() res: Response) {
    return this.show(req, res, id, reminderId, 'shipAgain');
  }

  @Post('reminders/:reminderId/ship')
  @HttpCode(200)
  shipAgain(@Param('id') id: string, @Param('reminderId') reminderId: string, @Req() req: Request, @Res() res: Response) {
    return this.run(req, res, id, reminderId, 'shipAgain');
  }

  private async show(req: Request, res: Response, id: string, reminderId: string | null, step: ShippingStep) {
    await asSignedIn(this.pages, req, res, async (user, page) => {
      await this.confirmPage(page, res, await this.load(user, id, reminderId), step, 200);
    });
  }

  private async run(req: Request, res: Response, id: string, reminderId: string | null, step: ShippingStep) {
    await asSignedIn(this.pages, req, res, async (user, page) => {
      const loaded = await this.load(user, id, reminderId); // another company's invoice or reminder: the 404 page
      try {
        if (step === 'shipAgain') await this.operations.shipReminderAgain(user, id, reminderId as string);
        else await this.operations.confirmShipping(user, id, reminderId);
      } catch (error) {
        if (!(error instanceof AppError) || error.status === 404 || error.status >= 500) throw error;
        return this.confirmPage(page, res, loaded, step, error.status, error);
      }
      await doneRedirect(req, res, loaded.wire.id, { key: step === 'shipAgain' ? 'reminderShipping' : 'shippingConfirmed' });
    });
  }

  /** The invoice with what it offers, and the reminder named (null: the invoice's own letter). */
  private async load(user: SignedInUser, id: string, reminderPublicId: string | null): Promise<Loaded> {
    const { view, wire, offers } = await this.invoices.page(user, id);
    if (reminderPublicId === null) return { view, wire, offers, reminder: null, path: `/invoices/${wire.id}` };
    const reminderId = parsePublicId('rem', reminderPublicId);
    const reminder = view.reminders.find((r) => r.id === reminderId);
    if (!reminder) throw new AppError('reminder.not_found', `Reminder ${reminderPublicId} was not found`);
    return { view, wire, offers, reminder, path: `/invoices/${wire.id}/reminders/${toPublicId('rem', reminder.id)}` };
  }

  private async confirmPage(page: PageContext, res: Response, loaded: Loaded, step: ShippingStep, status: number, refusal?: AppError) {
    const { view, wire, offers, reminder, path } = loaded;
    const waiting =
      step === 'confirmInvoice'
        ? offers.confirmInvoice
        : step === 'confirmReminder'
          ? offers.confirmReminder.has(reminder?.id ?? '')
          : offers.shipAgain.has(reminder?.id ?? '');
    // After a refusal the form stays, so the user sees the reason next to what they asked for.
    const offered = refusal !== undefined || waiting;
    const action = `${path}/${step === 'shipAgain' ? 'ship' : 'confirm_shipping'}`;
    const props = { view, wire, step, reminder, action, letter: `${path}/letter`, offered, refusal };
    await this.pages.send(res, status, ShippingConfirmPage({ page, props }));
  }
}
