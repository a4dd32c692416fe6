// Sign-in, sign-out and the language switch of the web app (HTML forms; CSRF checked in web.setup.ts).
import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../auth/auth.decorators.js';
import { credentialIdentifier, FailedAuthLimiter, RateLimited } from '../auth/failed-auth.limiter.js';
import { isLocale } from './i18n.js';
import { MessagePage, SignInPage } from './views/simple-pages.js';
import { WebAuthService } from './web-auth.service.js';
import { destroy, regenerate, safeReturnPath, WebPages } from './web-pages.js';
import { SESSION_COOKIE } from './web-security.js';
import { WebUsersRepository } from './web-users.repository.js';

type Form = Record<string, unknown> | undefined;
const text = (value: unknown) => (typeof value === 'string' ? value : '');

@Public()
@ApiExcludeController()
@Controller()
export class WebAuthController {
  constructor(
    private readonly pages: WebPages,
    private readonly auth: WebAuthService,
    private readonly users: WebUsersRepository,
    private readonly failedAuth: FailedAuthLimiter,
  ) {}

  @Get('sign-in')
  async signInPage(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response) {
    const next = safeReturnPath(query.next);
    if (await this.pages.user(req)) return res.redirect(303, next ?? '/dashboard');
    // The visitor's session carries the CSRF binding of the form (and the language they choose).
    req.session.visitor = true;
    const error = query.reason === 'expired' ? ('expired' as const) : undefined;
    const notice = query.reason === 'signed-out' ? ('signedOut' as const) : undefined;
    await this.pages.send(res, 200, SignInPage({ page: this.pages.context(req, res), form: { next, error, notice } }));
  }

  @Post('sign-in')
  @HttpCode(200)
  async signIn(@Body() body: Form, @Req() req: Request, @Res() res: Response) {
    const email = text(body?.email).trim();
    const password = text(body?.password);
    const next = safeReturnPath(body?.next);
    const address = req.ip ?? 'unknown';
    const identifier = credentialIdentifier('email', email, true);
    const tooMany = (error: RateLimited) =>
      this.pages.send(res, 429, MessagePage({ page: this.pages.context(req, res), kind: 'tooMany', seconds: error.retryAfterSeconds }));
    try {
      await this.failedAuth.assertPasswordAttemptAllowed(address, identifier, res);
    } catch (error) {
      if (error instanceof RateLimited) return tooMany(error);
      throw error;
    }
    const user = await this.auth.check(email, password);
    if (!user) {
      const limited = await this.failedAuth.recordFailure(address, identifier, res);
      if (limited) return tooMany(limited);
      req.session.visitor = true;
      return this.pages.send(res, 401, SignInPage({ page: this.pages.context(req, res), form: { email, next, error: 'wrong' } }));
    }
    await this.failedAuth.recordSuccess(address, identifier);
    // A new session id at sign-in: an id planted before it (session fixation) is worth nothing after.
    const locale = req.session.locale;
    await regenerate(req);
    Object.assign(req.session, { userId: user.id, companyId: user.companyId, locale });
    res.redirect(303, next ?? '/dashboard');
  }

  @Post('sign-out')
  @HttpCode(200)
  async signOut(@Req() req: Request, @Res() res: Response) {
    await destroy(req);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    res.redirect(303, '/sign-in?reason=signed-out');
  }

  @Post('language')
  @HttpCode(200)
  async language(@Body() body: Form, @Req() req: Request, @Res() res: Response) {
    const locale = body?.locale;
    const back = text(body?.back);
    if (!isLocale(locale)) return this.pages.send(res, 404, MessagePage({ page: this.pages.context(req, res), kind: 'notFound' }));
    const user = await this.pages.user(req);
    if (user) await this.users.setLocale(user.companyId, user.id, locale);
    else Object.assign(req.session, { visitor: true, locale });
    // Only a path of this site (never //host or a scheme): the switch cannot become an open redirect.
    res.redirect(303, /^\/(?![/\\])[^\s\\]*$/.test(back) ? back : '/dashboard');
  }
}
