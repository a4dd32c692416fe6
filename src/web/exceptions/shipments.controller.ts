// /exceptions/shipments: the shipments needing attention (GET /api/v1/shipments/attention's list),
// retry of one or many, and the fix of an e-mail or postal address followed by a retry.
import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { AppError } from '../../common/errors.js';
import { parsePublicId } from '../../common/ids.js';
import { pageMeta } from '../../common/pagination.js';
import { ShippingService } from '../../shipping/shipments/shipping.service.js';
import type { PageContext } from '../views/layout.js';
import { companyOf } from '../web-pages.js';
import type { SignedInUser } from '../web-users.repository.js';
import { actorOf, type Answer, ExceptionPages, formList, type Notice, pageOf } from './exception-pages.js';
import { documentKey, ExceptionsRepository } from './exceptions.repository.js';
import { ADDRESS_FIELDS, ShipmentRetry } from './shipment-retry.js';
import { attentionRows, parseDocument } from './shipment-rows.js';
import type { FixState } from './views/fix-forms.js';
import { documentLabel, ShipmentsPage } from './views/shipments-page.js';

type Form = Record<string, unknown> | undefined;
const PATH = '/exceptions/shipments';
const text = (value: unknown) => (typeof value === 'string' ? value : '');

@Public()
@ApiExcludeController()
@Controller('exceptions/shipments')
export class ShipmentsPagesController {
  constructor(
    private readonly frame: ExceptionPages,
    private readonly shipping: ShippingService,
    private readonly repository: ExceptionsRepository,
    private readonly retries: ShipmentRetry,
  ) {}

  @Get()
  async list(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response) {
    await this.frame.run(req, res, async (user, page) => {
      const bad: string[] = [];
      const request = pageOf(query, bad);
      const notices = this.frame.takeNotices(req);
      if (bad.length) notices.push({ key: 'exceptions.badFilter', values: { fields: bad.join(', ') }, error: true });
      return this.page(user, page, request, notices, undefined, bad.length ? 400 : 200);
    });
  }

  @Post('retry')
  @HttpCode(200)
  async retry(@Body() body: Form, @Req() req: Request, @Res() res: Response) {
    await this.frame.run(req, res, async (user, page) => {
      const values = formList(body, 'document');
      const documents = values.map(parseDocument);
      if (values.length === 0)
        return this.page(user, page, pageOf({}, []), [this.error('exceptions.shipments.nothingSelected')], undefined, 422);
      if (documents.some((d) => !d))
        return this.page(user, page, pageOf({}, []), [this.error('exceptions.shipments.badDocument')], undefined, 400);
      const valid = documents as Array<{ invoice: string; reminder: string | null }>;
      const labels = await this.labels(user, page, valid);
      const notices = await this.retries.retry(
        companyOf(user),
        actorOf(user),
        valid.map((d, i) => ({ ...d, label: labels[i] })),
        page.lang.t,
      );
      return this.frame.redirect(req, res, PATH, notices);
    });
  }

  @Post('fix')
  @HttpCode(200)
  async fix(@Body() body: Form, @Req() req: Request, @Res() res: Response) {
    await this.frame.run(req, res, async (user, page) => {
      const document = parseDocument(body?.document);
      const kind = body?.kind === 'email' || body?.kind === 'address' ? body.kind : undefined;
      if (!document || !kind)
        return this.page(user, page, pageOf({}, []), [this.error('exceptions.shipments.badDocument')], undefined, 400);
      const names = kind === 'email' ? ['name', 'email'] : [...ADDRESS_FIELDS];
      const values = Object.fromEntries(names.filter((n) => body?.[n] !== undefined).map((n) => [n, text(body?.[n]).trim()]));
      const company = companyOf(user);
      let saved: string;
      try {
        saved =
          kind === 'email'
            ? await this.retries.fixEmail(company, {
                contact: text(body?.contact) || undefined,
                customer: text(body?.customer),
                name: values.name,
                email: values.email ?? '',
              })
            : await this.retries.fixAddress(company, text(body?.customer), values);
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'validation.failed') throw error;
        const fix: FixState = { document: text(body?.document), kind, values, errors: error.errors.map((e) => e.field) };
        return this.page(user, page, pageOf({}, []), [this.error('exceptions.shipments.fixInvalid')], fix, 422);
      }
      const [label] = await this.labels(user, page, [document]);
      const notices = await this.retries.retry(company, actorOf(user), [{ ...document, label }], page.lang.t);
      return this.frame.redirect(req, res, PATH, [{ key: 'exceptions.shipments.saved', values: { name: saved } }, ...notices]);
    });
  }

  private async page(
    user: SignedInUser,
    page: PageContext,
    request: ReturnType<typeof pageOf>,
    notices: Notice[],
    fix: FixState | undefined,
    status: number,
  ): Promise<Answer> {
    const { shipments, total } = await this.shipping.needingAttention(companyOf(user), {}, request);
    const parties = await this.repository.parties(user.companyId, shipments);
    const rows = attentionRows(shipments, parties);
    return { status, html: ShipmentsPage({ page, props: { rows, meta: pageMeta(request, total), notices, fix } }) };
  }

  /** How the notices name each document: its invoice number (and reminder stage), as the list shows it. */
  private async labels(
    user: SignedInUser,
    page: PageContext,
    documents: Array<{ invoice: string; reminder: string | null }>,
  ): Promise<string[]> {
    const ids = documents.map((d) => ({
      invoiceId: parsePublicId('inv', d.invoice) as string,
      reminderId: d.reminder && (parsePublicId('rem', d.reminder) as string),
    }));
    const parties = await this.repository.parties(user.companyId, ids);
    return ids.map((id, i) => {
      const found = parties.get(documentKey(id.invoiceId, id.reminderId));
      return found ? documentLabel(page, id.reminderId, found) : documents[i].invoice;
    });
  }

  private error(key: string): Notice {
    return { key, error: true };
  }
}
