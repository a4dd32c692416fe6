// The account links (password reset, invitations) and the team's rules without their pages: what the
// web app's controllers and the operator CLI share.
import { Module } from '@nestjs/common';
import { CompaniesModule } from '../../companies/companies.module.js';
import { RateLimitsModule } from '../../http/rate-limits/rate-limits.module.js';
import { MailModule } from '../../mail/mail.module.js';
import { AccountMails } from './account-mails.js';
import { InvitationsRepository } from './invitations.repository.js';
import { InvitationsService } from './invitations.service.js';
import { PasswordResetService } from './password-reset.service.js';
import { PasswordResetsRepository } from './password-resets.repository.js';
import { ResetRequestLimiter } from './reset-limiter.js';
import { TeamRepository } from './team.repository.js';
import { TeamService } from './team.service.js';

@Module({
  imports: [CompaniesModule, MailModule, RateLimitsModule],
  providers: [
    AccountMails,
    PasswordResetsRepository,
    PasswordResetService,
    InvitationsRepository,
    InvitationsService,
    ResetRequestLimiter,
    TeamRepository,
    TeamService,
  ],
  exports: [PasswordResetService, InvitationsService, InvitationsRepository, ResetRequestLimiter, TeamService],
})
export class AccountCoreModule {}
