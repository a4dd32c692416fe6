// The team page of a signed-in user: the company's users and open invitations, inviting by e-mail and
// revoking an invitation. Another company's invitation id answers the 404 page.
import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { MessagePage } from '../views/simple-pages.js';
import { WebPages } from '../web-pages.js';
import type { SignedInUser } from '../web-users.repository.js';
import { checkedEmail } from './account-input.js';
import { takeNotice } from './account-session.js';
import { InvitationsRepository } from './invitations.repository.js';
import { InvitationRefused, InvitationsService } from './invitations.service.js';
import { TeamPage, type TeamProps } from './views/team-page.js';

type Form = Record<string, unknown> | undefined;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const STATUS = { invalid: 422, alreadyMember: 409, mailFailed: 503 } as const;

@Public()
@ApiExcludeController()
@Controller('team')
export class TeamController {
  constructor(
    private readonly pages: WebPages,
    private readonly invitations: InvitationsService,
    private readonly team: InvitationsRepository,
  ) {}

  @Get()
  async teamPage(@Req() req: Request, @Res() res: Response) {
    const user = await this.pages.user(req);
    if (!user) return this.pages.signInRedirect(req, res);
    const notice = takeNotice(req);
    await this.render(req, res, user, 200, notice ? this.pages.context(req, res, user).lang.t(notice.key, notice.values) : undefined);
  }

  @Post('invitations')
  @HttpCode(200)
  async invite(@Body() body: Form, @Req() req: Request, @Res() res: Response) {
    const user = await this.pages.user(req);
    if (!user) return this.pages.signInRedirect(req, res);
    const typed = typeof body?.email === 'string' ? body.email.slice(0, 254) : '';
    const email = await checkedEmail(body?.email);
    if (!email) return this.render(req, res, user, STATUS.invalid, undefined, { email: typed, error: 'invalid' });
    const inviter = {
      companyId: user.companyId,
      companyName: user.companyName,
      timeZone: user.timeZone,
      user: { id: user.id, email: user.email },
    };
    try {
      await this.invitations.invite(inviter, email, this.pages.context(req, res, user).lang.locale);
    } catch (error) {
      if (!(error instanceof InvitationRefused) || (error.reason !== 'alreadyMember' && error.reason !== 'mailFailed')) throw error;
      return this.render(req, res, user, STATUS[error.reason], undefined, { email, error: error.reason });
    }
    req.session.accountNotice = { key: 'account.team.invited', values: { email } };
    res.redirect(303, '/team');
  }

  @Post('invitations/:id/revoke')
  @HttpCode(200)
  async revoke(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    const user = await this.pages.user(req);
    if (!user) return this.pages.signInRedirect(req, res);
    if (!UUID.test(id) || !(await this.invitations.revoke(user.companyId, id))) {
      return this.pages.send(res, 404, MessagePage({ page: this.pages.context(req, res, user), kind: 'notFound' }));
    }
    req.session.accountNotice = { key: 'account.team.revoked' };
    res.redirect(303, '/team');
  }

  private async render(req: Request, res: Response, user: SignedInUser, status: number, notice?: string, form?: TeamProps['form']) {
    const [members, invitations] = await Promise.all([this.team.members(user.companyId), this.team.open(user.companyId)]);
    const page = this.pages.context(req, res, user);
    await this.pages.send(res, status, TeamPage({ page, props: { userId: user.id, members, invitations, form, notice } }));
  }
}
