// The invitee's page: the invitation link opens a form for the password; submitting it creates the user
// in the inviting company and signs them in.
import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { WebPages } from '../web-pages.js';
import { passwordProblem, type PasswordProblem } from './account-input.js';
import { markVisitor, signInSession } from './account-session.js';
import type { InvitationByLink } from './invitations.repository.js';
import { InvitationRefused, InvitationsService } from './invitations.service.js';
import { AccountMessagePage, SetPasswordPage } from './views/account-pages.js';

type Form = Record<string, unknown> | undefined;
const text = (value: unknown) => (typeof value === 'string' ? value : '');

@Public()
@ApiExcludeController()
@Controller('invitations')
export class InvitationController {
  constructor(
    private readonly pages: WebPages,
    private readonly invitations: InvitationsService,
  ) {}

  @Get(':token')
  async invitationPage(@Param('token') token: string, @Req() req: Request, @Res() res: Response) {
    const invitation = await this.invitations.open(token);
    if (!invitation) return this.refused(req, res, 'invalid');
    markVisitor(req);
    // The language the inviter wrote the e-mail in, unless the visitor chose one.
    req.session.locale ??= invitation.locale;
    await this.pages.send(res, 200, this.form(req, res, token, invitation));
  }

  @Post(':token')
  @HttpCode(200)
  async accept(@Param('token') token: string, @Body() body: Form, @Req() req: Request, @Res() res: Response) {
    const invitation = await this.invitations.open(token);
    if (!invitation) return this.refused(req, res, 'invalid');
    const problem = passwordProblem(text(body?.password), text(body?.password_repeat));
    if (problem) return this.pages.send(res, 422, this.form(req, res, token, invitation, problem));
    try {
      const user = await this.invitations.accept(token, text(body?.password));
      await signInSession(req, user.companyId, user.userId);
    } catch (error) {
      if (error instanceof InvitationRefused && (error.reason === 'invalid' || error.reason === 'taken'))
        return this.refused(req, res, error.reason);
      throw error;
    }
    res.redirect(303, '/dashboard');
  }

  private form(req: Request, res: Response, token: string, invitation: InvitationByLink, problem?: PasswordProblem) {
    const page = this.pages.context(req, res);
    const { t } = page.lang;
    const intro = t('account.invitation.intro', { email: invitation.email, company: invitation.companyName });
    const form = {
      title: t('account.invitation.title'),
      intro,
      email: invitation.email,
      action: `/invitations/${token}`,
      submit: t('account.invitation.submit'),
      problem,
    };
    return SetPasswordPage({ page, form });
  }

  private async refused(req: Request, res: Response, reason: 'invalid' | 'taken') {
    markVisitor(req);
    const page = this.pages.context(req, res);
    const { t } = page.lang;
    const message =
      reason === 'invalid'
        ? { title: t('account.invitation.invalidTitle'), text: t('account.invitation.invalid') }
        : {
            title: t('account.invitation.title'),
            text: t('account.invitation.taken'),
            link: { href: '/sign-in', label: t('signIn.submit') },
          };
    await this.pages.send(res, reason === 'invalid' ? 410 : 409, AccountMessagePage({ page, message }));
  }
}
