// The pages of a signed-in user: the records behind the API's service_url. They call
// the same services as the API, scoped by the user's company; an unknown id and another company's id
// both answer the same 404 page.
import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../auth/auth.decorators.js';
import { todayIn } from '../common/calendar-date.js';
import { AppError } from '../common/errors.js';
import { CustomersService } from '../customers/customers.service.js';
import { serializeInvoice } from '../invoices/invoice.serializer.js';
import { InvoicesService } from '../invoices/invoices.service.js';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { DashboardRepository } from './dashboard/dashboard.repository.js';
import { CustomerPage } from './views/customer-page.js';
import { InvoicePage } from './views/invoice-page.js';
import type { PageContext } from './views/layout.js';
import { MessagePage } from './views/simple-pages.js';
import { companyOf, WebPages } from './web-pages.js';
import type { SignedInUser } from './web-users.repository.js';

/** The customer page lists this many of the customer's invoices. */
const CUSTOMER_INVOICES = 100;

@Public()
@ApiExcludeController()
@Controller()
export class WebPagesController {
  constructor(
    private readonly pages: WebPages,
    private readonly dashboard: DashboardRepository,
    private readonly invoices: InvoicesService,
    private readonly customers: CustomersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('invoices/:id')
  async invoicePage(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    await this.signedIn(req, res, async (user, page) => {
      const company = companyOf(user);
      const view = await this.invoices.get(company, id);
      const events = await this.invoices.events(company, id);
      const { total } = serializeInvoice(view, { timeZone: user.timeZone, publicUrl: this.config.publicUrl });
      return InvoicePage({ page, props: { view, total, events } });
    });
  }

  @Get('customers/:id')
  async customerPage(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    await this.signedIn(req, res, async (user, page) => {
      const company = companyOf(user);
      const record = await this.customers.get(company, id);
      const [sums, list] = await Promise.all([
        this.dashboard.customerSums(user.companyId, record.customer.id, todayIn(user.timeZone)),
        this.invoices.list(company, { customerId: record.customer.id }, { page: 1, perPage: CUSTOMER_INVOICES, offset: 0 }),
      ]);
      const invoices = list.items.map((item) => item.invoice);
      return CustomerPage({ page, props: { record, sums, invoices, totalInvoices: list.total } });
    });
  }

  /** Runs `render` for the signed-in user, or sends a signed-out visitor to sign in; a record not found is the 404 page. */
  private async signedIn(req: Request, res: Response, render: (user: SignedInUser, page: PageContext) => Promise<JSX.Element>) {
    const user = await this.pages.user(req);
    if (!user) return this.pages.signInRedirect(req, res);
    const page = this.pages.context(req, res, user);
    try {
      await this.pages.send(res, 200, await render(user, page));
    } catch (error) {
      // Not found, and a malformed id (which names no record either): the same page, never a hint.
      if (error instanceof AppError && [400, 404, 422].includes(error.status)) {
        return this.pages.send(res, 404, MessagePage({ page, kind: 'notFound' }));
      }
      throw error;
    }
  }
}
