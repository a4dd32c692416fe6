// Password reset pages: ask for a link by e-mail address (the same answer whether the address has an
// account or not; rate limited per client and per address), open the link, set the new password.
import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { WebPages } from '../web-pages.js';
import { checkedEmail, passwordProblem } from './account-input.js';
import { markVisitor, signInSession } from './account-session.js';
import { PasswordResetService } from './password-reset.service.js';
import { ResetRequestLimiter } from './reset-limiter.js';
import { AccountMessagePage, RequestResetPage, SetPasswordPage } from './views/account-pages.js';

type Form = Record<string, unknown> | undefined;
const text = (value: unknown) => (typeof value === 'string' ? value : '');

@Public()
@ApiExcludeController()
@Controller('password-reset')
export class PasswordResetController {
  constructor(
    private readonly pages: WebPages,
    private readonly resets: PasswordResetService,
    private readonly limiter: ResetRequestLimiter,
  ) {}

  @Get()
  async requestPage(@Req() req: Request, @Res() res: Response) {
    markVisitor(req);
    await this.pages.send(res, 200, RequestResetPage({ page: this.pages.context(req, res) }));
  }

  @Post()
  @HttpCode(200)
  async request(@Body() body: Form, @Req() req: Request, @Res() res: Response) {
    markVisitor(req);
    const email = await checkedEmail(body?.email);
    if (!email) {
      const page = this.pages.context(req, res);
      return this.pages.send(res, 422, RequestResetPage({ page, email: text(body?.email).slice(0, 254), invalid: true }));
    }
    const wait = await this.limiter.consume(req.ip ?? 'unknown', email);
    if (wait !== null) {
      res.setHeader('Retry-After', String(wait));
      const page = this.pages.context(req, res);
      const { t } = page.lang;
      const message = { title: t('account.tooMany.title'), text: t('account.tooMany.text', { minutes: Math.ceil(wait / 60) }) };
      return this.pages.send(res, 429, AccountMessagePage({ page, message }));
    }
    this.resets.request(email);
    res.redirect(303, '/password-reset/sent');
  }

  @Get('sent')
  async sent(@Req() req: Request, @Res() res: Response) {
    const page = this.pages.context(req, res);
    const { t } = page.lang;
    const link = { href: '/sign-in', label: t('account.reset.backToSignIn') };
    await this.pages.send(
      res,
      200,
      AccountMessagePage({ page, message: { title: t('account.reset.sentTitle'), text: t('account.reset.sent'), link } }),
    );
  }

  @Get('done')
  async done(@Req() req: Request, @Res() res: Response) {
    const user = await this.pages.user(req);
    if (!user) return this.pages.signInRedirect(req, res);
    const page = this.pages.context(req, res, user);
    const { t } = page.lang;
    const link = { href: '/dashboard', label: t('account.reset.toDashboard') };
    await this.pages.send(
      res,
      200,
      AccountMessagePage({ page, message: { title: t('account.reset.doneTitle'), text: t('account.reset.done'), link } }),
    );
  }

  @Get(':token')
  async linkPage(@Param('token') token: string, @Req() req: Request, @Res() res: Response) {
    const reset = await this.resets.open(token);
    if (!reset) return this.invalid(req, res);
    markVisitor(req);
    await this.pages.send(res, 200, this.form(req, res, token, reset.email));
  }

  @Post(':token')
  @HttpCode(200)
  async setPassword(@Param('token') token: string, @Body() body: Form, @Req() req: Request, @Res() res: Response) {
    const reset = await this.resets.open(token);
    if (!reset) return this.invalid(req, res);
    const problem = passwordProblem(text(body?.password), text(body?.password_repeat));
    if (problem) return this.pages.send(res, 422, this.form(req, res, token, reset.email, problem));
    const done = await this.resets.complete(token, text(body?.password));
    // Spent by a second submission in the meantime.
    if (!done) return this.invalid(req, res);
    await signInSession(req, done.companyId, done.userId);
    res.redirect(303, '/password-reset/done');
  }

  private form(req: Request, res: Response, token: string, email: string, problem?: ReturnType<typeof passwordProblem>) {
    const page = this.pages.context(req, res);
    const { t } = page.lang;
    const action = `/password-reset/${token}`;
    return SetPasswordPage({
      page,
      form: { title: t('account.reset.formTitle'), email, action, submit: t('account.reset.save'), problem },
    });
  }

  /** An unknown, expired or spent link: one answer for all, with the way to a new one. */
  private async invalid(req: Request, res: Response) {
    markVisitor(req);
    const page = this.pages.context(req, res);
    const { t } = page.lang;
    const link = { href: '/password-reset', label: t('account.reset.again') };
    const message = { title: t('account.reset.invalidTitle'), text: t('account.reset.invalid'), link };
    await this.pages.send(res, 410, AccountMessagePage({ page, message }));
  }
}
