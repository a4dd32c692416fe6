// The team page: every user sees the company's users and open invitations; only owners (WebPages.owner,
// on every POST and on the confirmation page) invite with a role, revoke invitations, change roles and
// remove users. An id of another company (or none) answers the 404 page; a refusal shows its reason.
import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import type { UserRole } from '../../companies/companies.repository.js';
import { MessagePage } from '../views/simple-pages.js';
import { WebPages } from '../web-pages.js';
import type { SignedInUser } from '../web-users.repository.js';
import { checkedEmail } from './account-input.js';
import { takeNotice } from './account-session.js';
import { InvitationsRepository } from './invitations.repository.js';
import { InvitationRefused, InvitationsService } from './invitations.service.js';
import { TeamChangeRefused, TeamService } from './team.service.js';
import { RemoveUserPage } from './views/remove-user-page.js';
import { ROLES } from './views/team-parts.js';
import { TeamPage, type TeamProps } from './views/team-page.js';

type Form = Record<string, unknown> | undefined;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const STATUS = { invalid: 422, alreadyMember: 409, mailFailed: 503 } as const;
const roleOf = (value: unknown): UserRole | undefined => ROLES.find((role) => role === value);

@Public()
@ApiExcludeController()
@Controller('team')
export class TeamController {
  constructor(
    private readonly pages: WebPages,
    private readonly invitations: InvitationsService,
    private readonly openInvitations: InvitationsRepository,
    private readonly team: TeamService,
  ) {}

  @Get()
  async teamPage(@Req() req: Request, @Res() res: Response) {
    const user = await this.pages.user(req);
    if (!user) return this.pages.signInRedirect(req, res);
    const notice = takeNotice(req);
    const { t } = this.pages.context(req, res, user).lang;
    await this.render(req, res, user, 200, { notice: notice ? t(notice.key, notice.values) : undefined });
  }

  @Post('invitations')
  @HttpCode(200)
  async invite(@Body() body: Form, @Req() req: Request, @Res() res: Response) {
    const user = await this.pages.owner(req, res);
    if (!user) return;
    const typed = typeof body?.email === 'string' ? body.email.slice(0, 254) : '';
    const role = roleOf(body?.role) ?? 'member';
    const email = await checkedEmail(body?.email);
    if (!email) return this.render(req, res, user, STATUS.invalid, { form: { email: typed, role, error: 'invalid' } });
    const { companyId, companyName, timeZone } = user;
    const inviter = { companyId, companyName, timeZone, user: { id: user.id, email: user.email } };
    try {
      await this.invitations.invite(inviter, email, role, this.pages.context(req, res, user).lang.locale);
    } catch (error) {
      if (!(error instanceof InvitationRefused) || (error.reason !== 'alreadyMember' && error.reason !== 'mailFailed')) throw error;
      return this.render(req, res, user, STATUS[error.reason], { form: { email, role, error: error.reason } });
    }
    this.done(req, res, 'account.team.invited', { email });
  }

  @Post('invitations/:id/revoke')
  @HttpCode(200)
  async revoke(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    const user = await this.pages.owner(req, res);
    if (!user) return;
    if (!UUID.test(id) || !(await this.invitations.revoke(user.companyId, id))) return this.notFound(req, res, user);
    this.done(req, res, 'account.team.revoked');
  }

  @Post('users/:id/role')
  @HttpCode(200)
  async changeRole(@Param('id') id: string, @Body() body: Form, @Req() req: Request, @Res() res: Response) {
    const user = await this.pages.owner(req, res);
    if (!user) return;
    const role = roleOf(body?.role);
    if (!role) return this.render(req, res, user, 422, {});
    await this.refusable(req, res, user, async () => {
      const email = await this.team.changeRole({ companyId: user.companyId, userId: user.id }, UUID.test(id) ? id : '', role);
      const { t } = this.pages.context(req, res, user).lang;
      this.done(req, res, 'account.team.roleChanged', { email, role: t(`account.roles.${role}`) });
    });
  }

  @Get('users/:id/remove')
  async confirmRemoval(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    const user = await this.pages.owner(req, res);
    if (!user) return;
    const member = (await this.team.members(user.companyId)).find((m) => m.id === id);
    if (!member) return this.notFound(req, res, user);
    if (member.id === user.id) return this.refused(req, res, user, 'removeSelf');
    await this.pages.send(res, 200, RemoveUserPage({ page: this.pages.context(req, res, user), member }));
  }

  @Post('users/:id/remove')
  @HttpCode(200)
  async remove(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    const user = await this.pages.owner(req, res);
    if (!user) return;
    await this.refusable(req, res, user, async () => {
      const email = await this.team.remove({ companyId: user.companyId, userId: user.id }, UUID.test(id) ? id : '');
      this.done(req, res, 'account.team.removed', { email });
    });
  }

  private async refusable(req: Request, res: Response, user: SignedInUser, change: () => Promise<void>) {
    try {
      await change();
    } catch (error) {
      if (!(error instanceof TeamChangeRefused)) throw error;
      await (error.reason === 'notFound' ? this.notFound(req, res, user) : this.refused(req, res, user, error.reason));
    }
  }

  private refused(req: Request, res: Response, user: SignedInUser, reason: 'lastOwner' | 'removeSelf') {
    return this.render(req, res, user, 409, { error: this.pages.context(req, res, user).lang.t(`account.team.${reason}`) });
  }

  private notFound(req: Request, res: Response, user: SignedInUser) {
    return this.pages.send(res, 404, MessagePage({ page: this.pages.context(req, res, user), kind: 'notFound' }));
  }

  /** The change is made: the team page shows the notice once, after the redirect. */
  private done(req: Request, res: Response, key: string, values?: Record<string, string>) {
    req.session.accountNotice = { key, values };
    res.redirect(303, '/team');
  }

  private async render(
    req: Request,
    res: Response,
    user: SignedInUser,
    status: number,
    extra: Pick<TeamProps, 'form' | 'notice' | 'error'>,
  ) {
    const [members, invitations] = await Promise.all([this.team.members(user.companyId), this.openInvitations.open(user.companyId)]);
    const page = this.pages.context(req, res, user);
    const props = { userId: user.id, manages: user.role === 'owner', members, invitations, ...extra };
    await this.pages.send(res, status, TeamPage({ page, props }));
  }
}
