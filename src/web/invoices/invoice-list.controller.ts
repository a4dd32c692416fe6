// GET /invoices (the list) and GET /invoices/export.csv (the same query as a file), for the signed-in
// user's company. A refused query is the page with its errors (400); a customer filter naming no
// customer of the company is the 404 page, as any other company's id.
import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import type { CompanyContext } from '../../auth/principal.js';
import { todayIn } from '../../common/calendar-date.js';
import { AppError } from '../../common/errors.js';
import { CustomersService } from '../../customers/customers.service.js';
import { MessagePage } from '../views/simple-pages.js';
import { companyOf, WebPages } from '../web-pages.js';
import { csvFileName, sendCsv } from './invoice-list.csv.js';
import { InvoiceListPage } from './invoice-list.page.js';
import { type ListQuery, parseListQuery } from './invoice-list.query.js';
import { InvoiceListRepository } from './invoice-list.repository.js';

/** Rows per keyset batch of the export. */
const EXPORT_BATCH = 1_000;

@Public()
@ApiExcludeController()
@Controller('invoices')
export class InvoiceListController {
  constructor(
    private readonly pages: WebPages,
    private readonly list: InvoiceListRepository,
    private readonly customers: CustomersService,
  ) {}

  @Get()
  async listPage(@Req() req: Request, @Res() res: Response) {
    const user = await this.pages.user(req);
    if (!user) return this.pages.signInRedirect(req, res);
    const page = this.pages.context(req, res, user);
    const parsed = parseListQuery(req.query);
    if (!parsed.ok) return this.pages.send(res, 400, InvoiceListPage({ page, props: { query: parsed.query, errors: parsed.errors } }));
    const { customerName, found } = await this.pages.reads(req, async () => {
      const customerName = await this.customerName(companyOf(user), parsed.query);
      if (customerName === null) return { customerName };
      return { customerName, found: await this.list.page(user.companyId, parsed.query, todayIn(user.timeZone)) };
    });
    if (!found) return this.pages.send(res, 404, MessagePage({ page, kind: 'notFound' }));
    return this.pages.send(res, 200, InvoiceListPage({ page, props: { query: parsed.query, found, customerName } }));
  }

  @Get('export.csv')
  async exportCsv(@Req() req: Request, @Res() res: Response) {
    const user = await this.pages.user(req);
    if (!user) return this.pages.signInRedirect(req, res);
    const page = this.pages.context(req, res, user);
    const parsed = parseListQuery(req.query);
    if (!parsed.ok) return this.pages.send(res, 400, InvoiceListPage({ page, props: { query: parsed.query, errors: parsed.errors } }));
    const today = todayIn(user.timeZone);
    // Once the file has begun, a failing standby cannot hand the export to the primary: it breaks off.
    await this.pages.reads(
      req,
      async () => {
        if ((await this.customerName(companyOf(user), parsed.query)) === null) {
          return this.pages.send(res, 404, MessagePage({ page, kind: 'notFound' }));
        }
        const batches = this.list.batches(user.companyId, parsed.query, today, EXPORT_BATCH);
        await sendCsv(res, page.lang, csvFileName(page.lang, today), batches);
      },
      () => !res.headersSent,
    );
  }

  /** The name of the filter's customer; undefined without that filter, null when the company has no such customer. */
  private async customerName(company: CompanyContext, query: ListQuery): Promise<string | null | undefined> {
    if (!query.customer) return undefined;
    try {
      return (await this.customers.get(company, query.customer.publicId)).customer.name;
    } catch (error) {
      if (error instanceof AppError && error.status === 404) return null;
      throw error;
    }
  }
}
