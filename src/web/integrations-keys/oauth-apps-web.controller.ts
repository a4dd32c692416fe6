// /integrations/oauth-apps (owners only): the company's OAuth applications over the API's own service
// and DTO — register (the client secret shown once), a new secret, revoking every token granted, and
// deleting (the API's DELETE: the application is revoked with its tokens and no longer listed). Each
// action that cannot be undone asks first.
import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import type { CompanyContext } from '../../auth/principal.js';
import { AppError } from '../../common/errors.js';
import { MAX_PER_PAGE } from '../../common/pagination.js';
import { createValidationPipe } from '../../common/validation.js';
import { CreateOAuthApplicationDto } from '../../oauth/dto/oauth-application.dto.js';
import type { OAuthApplication } from '../../oauth/oauth-applications.repository.js';
import { OAuthApplicationsService } from '../../oauth/oauth-applications.service.js';
import { refusalOf, text } from '../dunning/dunning-pages.js';
import { KeyPages, type OwnerFrame } from './key-pages.js';
import { ConfirmPage } from './views/key-parts.js';
import { NewSecretPage, OAuthAppsPage, type OAuthAppsProps } from './views/oauth-apps-page.js';

const pipe = createValidationPipe();
const LIST = '/integrations/oauth-apps';
/** The actions that ask first, by their path: the catalogue's keys of the question. */
const CONFIRMED = { regenerate: 'regenerate', 'revoke-tokens': 'revokeTokens', delete: 'delete' } as const;
type Confirmed = keyof typeof CONFIRMED;

@Public()
@ApiExcludeController()
@Controller('integrations/oauth-apps')
export class OAuthAppsWebController {
  constructor(
    private readonly frame: KeyPages,
    private readonly applications: OAuthApplicationsService,
  ) {}

  @Get()
  async list(@Req() req: Request, @Res() res: Response) {
    await this.frame.owner(req, res, (owner) => this.listPage(owner, 200, { notice: this.frame.takeNotice(req, owner.page) }));
  }

  @Post()
  @HttpCode(200)
  async register(@Body() body: Record<string, unknown> | undefined, @Req() req: Request, @Res() res: Response) {
    await this.frame.owner(req, res, async (owner) => {
      const name = text(body?.name).trim();
      const redirectUris = text(body?.redirect_uris);
      const uris = redirectUris
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean);
      try {
        const form = { name, redirect_uris: uris };
        const dto = (await pipe.transform(form, { type: 'body', metatype: CreateOAuthApplicationDto })) as CreateOAuthApplicationDto;
        const { application, clientSecret } = await this.applications.create(owner.company, dto);
        return { status: 201, html: NewSecretPage({ page: owner.page, application, secret: clientSecret }) };
      } catch (error) {
        const refusal = refusalOf(error);
        const errors = Object.keys(refusal.fields).length ? refusal.fields : { name: refusal.message };
        return this.listPage(owner, 422, { form: { name, redirectUris, errors } });
      }
    });
  }

  @Get(':id/:action')
  async confirm(@Param('id') id: string, @Param('action') action: string, @Req() req: Request, @Res() res: Response) {
    await this.frame.owner(req, res, async ({ company, page }) => {
      const application = await this.active(company, id, action);
      const key = `keys.oauthApps.${CONFIRMED[action as Confirmed]}`;
      const { t } = page.lang;
      const html = ConfirmPage({
        page,
        title: t(`${key}Title`, { name: application.name }),
        consequence: t(`${key}Text`),
        action: `${LIST}/${id}/${action}`,
        confirm: t(`${key}Confirm`),
        back: LIST,
      });
      return { status: 200, html };
    });
  }

  @Post(':id/regenerate')
  @HttpCode(200)
  async regenerate(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    await this.frame.owner(req, res, async ({ company, page }) => {
      const { application, clientSecret } = await this.applications.regenerateSecret(company, id);
      return { status: 201, html: NewSecretPage({ page, application, secret: clientSecret, regenerated: true }) };
    });
  }

  @Post(':id/revoke-tokens')
  @HttpCode(200)
  async revokeTokens(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    await this.frame.owner(req, res, async ({ company }) => {
      const application = await this.applications.get(company, id);
      const count = await this.applications.revokeTokens(company, id);
      return this.frame.redirect(req, res, LIST, { key: 'keys.oauthApps.tokensRevoked', values: { count, name: application.name } });
    });
  }

  @Post(':id/delete')
  @HttpCode(200)
  async remove(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    await this.frame.owner(req, res, async ({ company }) => {
      const application = await this.active(company, id, 'delete');
      await this.applications.revoke(company, id);
      return this.frame.redirect(req, res, LIST, { key: 'keys.oauthApps.deleted', values: { name: application.name } });
    });
  }

  /** The application for an action; an unknown action or a deleted application is the 404 page like an unknown id. */
  private async active(company: CompanyContext, id: string, action: string): Promise<OAuthApplication> {
    const application = await this.applications.get(company, id);
    if (!(action in CONFIRMED) || application.revokedAt) {
      throw new AppError('oauth_application.not_found', `OAuth application ${id} was not found`);
    }
    return application;
  }

  private async listPage({ company, page }: OwnerFrame, status: number, extra: Partial<OAuthAppsProps>) {
    const applications = await activeApplications(this.applications, company);
    return { status, html: OAuthAppsPage({ page, props: { applications, ...extra } }) };
  }
}

/** Every application not deleted, oldest first (a company registers a handful). */
async function activeApplications(service: OAuthApplicationsService, company: CompanyContext): Promise<OAuthApplication[]> {
  const all: OAuthApplication[] = [];
  for (let page = 1; ; page++) {
    const { applications, total } = await service.list(company, { page, perPage: MAX_PER_PAGE, offset: (page - 1) * MAX_PER_PAGE });
    all.push(...applications);
    if (applications.length === 0 || all.length >= total) return all.filter((application) => !application.revokedAt);
  }
}
