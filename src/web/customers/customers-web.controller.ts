// The customer pages of a signed-in user: the list, one customer (the API's service_url) and its settings
// form. They call the same CustomersService as the API, scoped by the user's company; an unknown id and
// another company's id answer the same 404 page.
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { todayIn } from '../../common/calendar-date.js';
import { AppError } from '../../common/errors.js';
import { CustomersService } from '../../customers/customers.service.js';
import { DashboardRepository } from '../dashboard/dashboard.repository.js';
import type { PageContext } from '../views/layout.js';
import { MessagePage } from '../views/simple-pages.js';
import { companyOf, WebPages } from '../web-pages.js';
import type { SignedInUser } from '../web-users.repository.js';
import { CustomerListPage } from './customer-list.page.js';
import { parseCustomerListQuery } from './customer-list.query.js';
import { CustomerListRepository } from './customer-list.repository.js';
import { CustomerPage } from './customer-page.js';
import { readSettingsForm, type SettingsOutcome } from './customer-settings.js';

declare module 'express-session' {
  interface SessionData {
    /** The customer whose settings were just saved: its page says so once. */
    customerSaved?: string;
  }
}

/** The customer page lists this many of the customer's newest invoices. */
const CUSTOMER_INVOICES = 100;

interface Rendered {
  status: number;
  html: JSX.Element;
}

@Public()
@ApiExcludeController()
@Controller('customers')
export class CustomersWebController {
  constructor(
    private readonly pages: WebPages,
    private readonly customers: CustomersService,
    private readonly list: CustomerListRepository,
    private readonly dashboard: DashboardRepository,
  ) {}

  @Get()
  async listPage(@Query() raw: Record<string, unknown>, @Req() req: Request, @Res() res: Response) {
    await this.signedIn(req, res, async (user, page) => {
      const { query, problems } = parseCustomerListQuery(raw);
      const { rows, total } = await this.list.page(user.companyId, query, todayIn(user.timeZone));
      return { status: problems.length ? 400 : 200, html: CustomerListPage({ page, props: { query, problems, rows, total } }) };
    });
  }

  @Get(':id')
  async customerPage(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    await this.signedIn(req, res, async (user, page) => {
      const saved = req.session.customerSaved === id;
      if (saved) delete req.session.customerSaved;
      return { status: 200, html: await this.render(user, page, id, saved ? { kind: 'saved' } : undefined) };
    });
  }

  @Post(':id/settings')
  @HttpCode(200)
  async saveSettings(@Param('id') id: string, @Body() body: unknown, @Req() req: Request, @Res() res: Response) {
    await this.signedIn(req, res, async (user, page) => {
      const company = companyOf(user);
      // Another company's customer is a 404 whatever the form holds.
      await this.customers.require(company, id);
      const form = await readSettingsForm(body);
      if ('invalid' in form) {
        return { status: 422, html: await this.render(user, page, id, { kind: 'invalid', fields: form.invalid }) };
      }
      await this.customers.update(company, id, form.dto);
      req.session.customerSaved = id;
      res.redirect(303, `/customers/${id}`);
      return undefined;
    });
  }

  /** Where sign-in leads back to after a signed-out visitor posted the form: the customer page. */
  @Get(':id/settings')
  settingsPage(@Param('id') id: string, @Res() res: Response) {
    res.redirect(303, `/customers/${encodeURIComponent(id)}`);
  }

  private async render(user: SignedInUser, page: PageContext, id: string, settings?: SettingsOutcome): Promise<JSX.Element> {
    const record = await this.customers.get(companyOf(user), id);
    const [sums, invoices] = await Promise.all([
      this.dashboard.customerSums(user.companyId, record.customer.id, todayIn(user.timeZone)),
      this.list.invoicesOf(user.companyId, record.customer.id, CUSTOMER_INVOICES),
    ]);
    return CustomerPage({ page, props: { record, sums, invoices, settings } });
  }

  /**
   * Runs `handle` for the signed-in user, or sends a signed-out visitor to sign in; a record not found
   * (or a malformed id, which names no record either) is the 404 page. `handle` answers a page, or
   * nothing when it has answered itself (a redirect).
   */
  private async signedIn(req: Request, res: Response, handle: (user: SignedInUser, page: PageContext) => Promise<Rendered | undefined>) {
    const user = await this.pages.user(req);
    if (!user) return this.pages.signInRedirect(req, res);
    const page = this.pages.context(req, res, user);
    try {
      const rendered = await handle(user, page);
      if (rendered) await this.pages.send(res, rendered.status, rendered.html);
    } catch (error) {
      if (error instanceof AppError && [400, 404, 422].includes(error.status)) {
        return this.pages.send(res, 404, MessagePage({ page, kind: 'notFound' }));
      }
      throw error;
    }
  }
}
