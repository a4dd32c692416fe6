// /integrations/api-keys (owners only): the company's API keys over the API's own service and DTO —
// create and renew (the secret shown once, never stored or logged), revoke after a confirmation, and
// the expiry banner the dashboard loads.
import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CreateApiKeyDto } from '../../api-keys/dto/api-key.dto.js';
import { ApiKeysService } from '../../api-keys/api-keys.service.js';
import { Public } from '../../auth/auth.decorators.js';
import { createValidationPipe } from '../../common/validation.js';
import { refusalOf, text } from '../dunning/dunning-pages.js';
import { allKeys, expiringKeys, KeyPages, type OwnerFrame } from './key-pages.js';
import { ApiKeysPage, type ApiKeysProps, NewKeyPage } from './views/api-keys-page.js';
import { ConfirmPage, KeyExpiryBanner } from './views/key-parts.js';

const pipe = createValidationPipe();
const LIST = '/integrations/api-keys';

@Public()
@ApiExcludeController()
@Controller('integrations/api-keys')
export class ApiKeysWebController {
  constructor(
    private readonly frame: KeyPages,
    private readonly keys: ApiKeysService,
  ) {}

  @Get()
  async list(@Req() req: Request, @Res() res: Response) {
    await this.frame.owner(req, res, (owner) => this.listPage(owner, 200, { notice: this.frame.takeNotice(req, owner.page) }));
  }

  @Get('expiry-banner')
  async banner(@Req() req: Request, @Res() res: Response) {
    await this.frame.owner(req, res, async ({ company, page }) => {
      const expiring = expiringKeys(await allKeys(this.keys, company));
      return { status: 200, html: KeyExpiryBanner({ page, keys: expiring }) };
    });
  }

  @Post()
  @HttpCode(200)
  async create(@Body() body: Record<string, unknown> | undefined, @Req() req: Request, @Res() res: Response) {
    await this.frame.owner(req, res, async (owner) => {
      const name = text(body?.name).trim();
      try {
        const dto = (await pipe.transform({ name: name || undefined }, { type: 'body', metatype: CreateApiKeyDto })) as CreateApiKeyDto;
        const created = await this.keys.create(owner.company, dto.name);
        return { status: 201, html: NewKeyPage({ page: owner.page, view: created, secret: created.secret }) };
      } catch (error) {
        const refusal = refusalOf(error);
        return this.listPage(owner, 422, { form: { name, error: refusal.fields.name ?? refusal.message } });
      }
    });
  }

  @Post(':id/rotate')
  @HttpCode(200)
  async rotate(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    await this.frame.owner(req, res, async (owner) => {
      try {
        const { current, previous } = await this.keys.rotate(owner.company, id);
        const html = NewKeyPage({ page: owner.page, view: current, secret: current.secret, previousUntil: previous.key.expiresAt });
        return { status: 201, html };
      } catch (error) {
        const refusal = refusalOf(error);
        if (refusal.status === 404) throw error;
        return this.listPage(owner, refusal.status, { error: refusal.message });
      }
    });
  }

  @Get(':id/revoke')
  async confirmRevoke(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    await this.frame.owner(req, res, async ({ company, page }) => {
      const { key } = await this.keys.get(company, id);
      const { t } = page.lang;
      const html = ConfirmPage({
        page,
        title: t('keys.apiKeys.revokeTitle', { name: key.name }),
        consequence: t('keys.apiKeys.revokeText'),
        action: `${LIST}/${id}/revoke`,
        confirm: t('keys.apiKeys.revokeConfirm'),
        back: LIST,
      });
      return { status: 200, html };
    });
  }

  @Post(':id/revoke')
  @HttpCode(200)
  async revoke(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    await this.frame.owner(req, res, async ({ company }) => {
      const { key } = await this.keys.get(company, id);
      await this.keys.revoke(company, id);
      return this.frame.redirect(req, res, LIST, { key: 'keys.apiKeys.revoked', values: { name: key.name } });
    });
  }

  private async listPage({ company, page }: OwnerFrame, status: number, extra: Partial<ApiKeysProps>) {
    const keys = await allKeys(this.keys, company);
    return { status, html: ApiKeysPage({ page, props: { keys, expiring: expiringKeys(keys), ...extra } }) };
  }
}
