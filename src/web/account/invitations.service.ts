// Invitations into a company: a single-use link valid for 7 days (only its hash stored) that lets the
// invitee set a password and become a user of the SAME company, in the role the invitation names. Only
// owners invite and revoke on the team page (WebPages.owner); the operator invites with the CLI.
import { Injectable } from '@nestjs/common';
import { hashPassword } from '../../auth/secrets.js';
import { AppError } from '../../common/errors.js';
import { newUuid, parsePublicId } from '../../common/ids.js';
import { CompaniesRepository, type UserRole } from '../../companies/companies.repository.js';
import type { Locale } from '../i18n.js';
import { AccountMails } from './account-mails.js';
import { type InvitationByLink, InvitationsRepository } from './invitations.repository.js';
import { INVITATION_LINK_DAYS, linkTokenHash, newLinkToken } from './link-tokens.js';

export interface Inviter {
  companyId: string;
  companyName: string;
  timeZone: string;
  /** The inviting user; absent for the operator (CLI). */
  user?: { id: string; email: string };
}

export interface SentInvitation {
  link: string;
  expiresAt: Date;
  /** False when the e-mail could not be sent (only with `keepWhenMailFails`). */
  mailed: boolean;
}

/** Why an invitation was not made or not accepted; the pages and the CLI say it in their words. */
export class InvitationRefused extends Error {
  constructor(
    readonly reason: 'alreadyMember' | 'mailFailed' | 'companyNotFound' | 'invalid' | 'taken',
    options?: ErrorOptions,
  ) {
    super(`invitation refused: ${reason}`, options);
  }
}

@Injectable()
export class InvitationsService {
  constructor(
    private readonly invitations: InvitationsRepository,
    private readonly companies: CompaniesRepository,
    private readonly mails: AccountMails,
  ) {}

  /** The inviter of an operator's invitation: the company named by its public id. */
  async operatorOf(publicCompanyId: string): Promise<Inviter> {
    const id = parsePublicId('cmp', publicCompanyId);
    const company = id ? await this.companies.findById(id) : null;
    if (!company) throw new InvitationRefused('companyNotFound');
    return { companyId: company.id, companyName: company.name, timeZone: company.timeZone };
  }

  /**
   * Invites `email` (checked by the caller) as `role` in `locale` and sends the e-mail; an open invitation of the
   * same address is replaced. When the e-mail fails the invitation is withdrawn, unless the caller
   * passes the link on itself (`keepWhenMailFails`, the CLI).
   */
  async invite(inviter: Inviter, email: string, role: UserRole, locale: Locale, keepWhenMailFails = false): Promise<SentInvitation> {
    if (await this.invitations.isMember(inviter.companyId, email)) throw new InvitationRefused('alreadyMember');
    const { token, hash } = newLinkToken();
    const id = newUuid();
    const expiresAt = new Date(Date.now() + INVITATION_LINK_DAYS * 24 * 60 * 60 * 1000);
    const { companyId, companyName, timeZone } = inviter;
    await this.invitations.insert({ companyId, id, email, role, locale, invitedBy: inviter.user?.id ?? null, tokenHash: hash, expiresAt });
    const path = `/invitations/${token}`;
    try {
      await this.mails.invitation({ to: email, locale, timeZone, companyName, path, expiresAt }, inviter.user?.email ?? null);
    } catch (error) {
      if (keepWhenMailFails) return { link: this.mails.link(path), expiresAt, mailed: false };
      await this.invitations.delete(companyId, id);
      throw new InvitationRefused('mailFailed', { cause: error });
    }
    return { link: this.mails.link(path), expiresAt, mailed: true };
  }

  /** False when the id names no open invitation of the company. */
  revoke(companyId: string, id: string): Promise<boolean> {
    return this.invitations.revoke(companyId, id);
  }

  /** The invitation of a link that is still valid. */
  async open(token: string): Promise<InvitationByLink | undefined> {
    const hash = linkTokenHash(token);
    return hash ? this.invitations.byLink(hash) : undefined;
  }

  /** Creates the invitee's user in the inviting company with the password (checked by the caller) and spends the link. */
  async accept(token: string, password: string): Promise<{ companyId: string; userId: string }> {
    const hash = linkTokenHash(token);
    if (!hash) throw new InvitationRefused('invalid');
    const passwordHash = await hashPassword(password);
    try {
      return await this.invitations.transaction(async (manager) => {
        const invitation = await this.invitations.spend(hash, manager);
        if (!invitation) throw new InvitationRefused('invalid');
        const userId = newUuid();
        await this.companies.insertUser(invitation.companyId, userId, invitation.email, passwordHash, invitation.role, manager);
        await this.invitations.recordUser(invitation.companyId, invitation.id, userId, invitation.locale, manager);
        return { companyId: invitation.companyId, userId };
      });
    } catch (error) {
      // The address became a user meanwhile (of this company or another: addresses are unique service-wide).
      if (error instanceof AppError && error.code === 'registration.email_taken') throw new InvitationRefused('taken');
      throw error;
    }
  }
}
