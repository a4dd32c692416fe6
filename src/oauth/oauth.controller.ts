// The authorization server's endpoints: GET /oauth/authorize (login-and-consent page), POST
// /oauth/authorize (the user's decision), POST /oauth/token (authorization_code and refresh_token
// grants, form-encoded, client authentication by form fields or HTTP Basic, RFC 6749 error bodies).
import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { Public } from '../auth/auth.decorators.js';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { renderConsentPage, renderErrorPage } from './consent-page.js';
import { type AuthorizeCheck, OAuthService } from './oauth.service.js';

@ApiTags('oauth')
@Public()
@Controller('oauth')
export class OAuthController {
  /** Failed logins per client address and minute, like the API's failed authentications. */
  private readonly failedLogins: RateLimiterMemory;
  private readonly loginLimit: number;

  constructor(
    private readonly oauth: OAuthService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.loginLimit = config.rateLimit.failedAuthPerMinute;
    this.failedLogins = new RateLimiterMemory({ points: this.loginLimit, duration: 60 });
  }

  @Get('authorize')
  @ApiExcludeEndpoint()
  async authorize(@Query() query: Record<string, unknown>, @Res() res: Response) {
    const check = await this.oauth.checkAuthorization(query);
    if (!check.ok) return this.refuse(check, res);
    sendPage(
      res,
      200,
      renderConsentPage({ applicationName: check.application.name, companyName: check.application.companyName, params: check.params }),
    );
  }

  @Post('authorize')
  @ApiExcludeEndpoint()
  async decide(@Body() body: Record<string, unknown>, @Req() req: Request, @Res() res: Response) {
    const check = await this.oauth.checkAuthorization(body);
    if (!check.ok) return this.refuse(check, res);
    if (body.decision !== 'allow') return res.redirect(302, this.oauth.deny(check.redirectUri, check.params.state));
    const email = typeof body.email === 'string' ? body.email.trim() : '';
    const password = typeof body.password === 'string' ? body.password : '';
    const page = (status: number, error: string) =>
      sendPage(
        res,
        status,
        renderConsentPage({
          applicationName: check.application.name,
          companyName: check.application.companyName,
          params: check.params,
          email,
          error,
        }),
      );
    const address = req.ip ?? 'unknown';
    const failures = await this.failedLogins.get(address);
    if (failures && failures.consumedPoints >= this.loginLimit) {
      res.setHeader('Retry-After', String(Math.max(1, Math.ceil(failures.msBeforeNext / 1000))));
      return page(429, 'Zu viele fehlgeschlagene Anmeldungen. Bitte warten Sie eine Minute.');
    }
    const user = await this.oauth.login(check.application, email, password);
    if (!user) {
      await this.failedLogins.penalty(address, 1);
      return page(401, 'E-Mail-Adresse oder Passwort ist falsch.');
    }
    res.redirect(302, await this.oauth.approve(check.params, user));
  }

  @Post('token')
  @HttpCode(200)
  @ApiExcludeEndpoint()
  async token(@Req() req: Request, @Res() res: Response) {
    const answer = await this.oauth.token(req);
    // server_error (503): the database is away; the client may try again shortly.
    const retry = answer.status === 503 ? { 'Retry-After': '5' } : {};
    res
      .status(answer.status)
      .set({ ...answer.headers, ...retry, 'Cache-Control': 'no-store', Pragma: 'no-cache' })
      .json(answer.body);
  }

  private refuse(check: Extract<AuthorizeCheck, { ok: false }>, res: Response) {
    if ('redirect' in check) return res.redirect(302, check.redirect);
    sendPage(res, 400, renderErrorPage(check.page));
  }
}

function sendPage(res: Response, status: number, html: string): void {
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Frame-Options': 'DENY',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'Referrer-Policy': 'no-referrer',
    })
    .send(html);
}
