// The authorization server's endpoints: GET /oauth/authorize (login-and-consent page), POST
// /oauth/authorize (the user's decision), POST /oauth/token (authorization_code and refresh_token
// grants, form-encoded, client authentication by form fields or HTTP Basic, RFC 6749 error bodies).
import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../auth/auth.decorators.js';
import { credentialIdentifier, FailedAuthLimiter, RateLimited } from '../auth/failed-auth.limiter.js';
import { renderConsentPage, renderErrorPage } from './consent-page.js';
import { type AuthorizeCheck, OAuthService } from './oauth.service.js';
import { ApiAuthorizeDecision, ApiAuthorizePage, ApiTokenEndpoint } from './oauth.schema.js';

@ApiTags('oauth')
@Public()
@Controller('oauth')
export class OAuthController {
  constructor(
    private readonly oauth: OAuthService,
    private readonly failedAuth: FailedAuthLimiter,
  ) {}

  @Get('authorize')
  @ApiAuthorizePage()
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
  @ApiAuthorizeDecision()
  async decide(@Body() sent: Record<string, unknown> | undefined, @Req() req: Request, @Res() res: Response) {
    // A POST without a body is a request without parameters: RFC 6749 § 4.1.2.1 answers it with the error
    // page (no client to redirect to), not a crash.
    const body = sent ?? {};
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
    const identifier = credentialIdentifier('email', email, true);
    const tooMany = () => page(429, 'Zu viele fehlgeschlagene Anmeldungen. Bitte warten Sie eine Minute.');
    try {
      await this.failedAuth.assertPasswordAttemptAllowed(address, identifier, res);
    } catch (error) {
      if (error instanceof RateLimited) return tooMany();
      throw error;
    }
    const user = await this.oauth.login(check.application, email, password);
    if (!user) {
      if (await this.failedAuth.recordFailure(address, identifier, res)) return tooMany();
      return page(401, 'E-Mail-Adresse oder Passwort ist falsch.');
    }
    await this.failedAuth.recordSuccess(address, identifier);
    res.redirect(302, await this.oauth.approve(check.params, user));
  }

  @Post('token')
  @HttpCode(200)
  @ApiTokenEndpoint()
  async token(@Req() req: Request, @Res() res: Response) {
    // Client secrets count against the failed-authentication limit like every other credential.
    const address = req.ip ?? 'unknown';
    const client = clientIdOf(req);
    const identifier = client ? credentialIdentifier('client', client, true) : null;
    let limited: RateLimited | null = null;
    try {
      await this.failedAuth.assertIdentifierOpen(identifier, res);
    } catch (error) {
      if (!(error instanceof RateLimited)) throw error;
      limited = error;
    }
    const answer = limited ? null : await this.oauth.token(req);
    if (answer?.body && (answer.body as { error?: unknown }).error === 'invalid_client')
      limited = await this.failedAuth.recordFailure(address, identifier, res);
    if (limited || !answer) {
      res.status(429).set({ 'Retry-After': String(limited?.retryAfterSeconds ?? 60), 'Cache-Control': 'no-store', Pragma: 'no-cache' });
      return void res.json({ error: 'invalid_client', error_description: limited?.message ?? 'Too many failed client authentications' });
    }
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

/** The client_id of a token request: a form field, or the user name of HTTP Basic authentication. */
function clientIdOf(req: Request): string | null {
  const field = (req.body as Record<string, unknown> | undefined)?.client_id;
  if (typeof field === 'string' && field) return field;
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!basic) return null;
  const user = Buffer.from(basic[1], 'base64').toString('utf8').split(':')[0];
  try {
    return decodeURIComponent(user) || null;
  } catch {
    return user || null;
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
