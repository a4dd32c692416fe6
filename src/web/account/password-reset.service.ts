// Password reset by e-mail: a single-use link valid for an hour, only its hash stored. Asking for one
// answers at once and the same way whether the address has an account or not; the lookup and the
// e-mail run after the answer, so neither their outcome nor their time tells anything.
import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { hashPassword } from '../../auth/secrets.js';
import { newUuid } from '../../common/ids.js';
import { AccountMails } from './account-mails.js';
import { linkTokenHash, newLinkToken, RESET_LINK_HOURS } from './link-tokens.js';
import { type OpenReset, PasswordResetsRepository } from './password-resets.repository.js';

export interface ResetDone {
  companyId: string;
  userId: string;
}

@Injectable()
export class PasswordResetService implements OnApplicationShutdown {
  private readonly logger = new Logger(PasswordResetService.name);
  /** Requests whose e-mail is still on its way; the application waits for them when it stops. */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly resets: PasswordResetsRepository,
    private readonly mails: AccountMails,
  ) {}

  /** Sends a reset link to the account with this address, if there is one, without the caller waiting. */
  request(email: string): void {
    const work: Promise<void> = this.send(email)
      .catch((error: unknown) => this.logger.error({ err: error }, 'password reset e-mail failed'))
      .finally(() => this.pending.delete(work));
    this.pending.add(work);
  }

  /** The account of a link that is still valid. */
  async open(token: string): Promise<OpenReset | undefined> {
    const hash = linkTokenHash(token);
    return hash ? this.resets.findOpen(hash) : undefined;
  }

  /**
   * Spends the link and sets the new password (checked by the caller); every other link of the user is
   * spent and every session of theirs ended. Undefined when the link is not valid (any more).
   */
  async complete(token: string, password: string): Promise<ResetDone | undefined> {
    const hash = linkTokenHash(token);
    if (!hash) return undefined;
    const passwordHash = await hashPassword(password);
    return this.resets.transaction(async (manager) => {
      const spent = await this.resets.spend(hash, manager);
      if (spent) await this.resets.setPassword(spent.companyId, spent.userId, passwordHash, manager);
      return spent;
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  private async send(email: string): Promise<void> {
    const user = await this.resets.findUser(email);
    if (!user) return;
    const { token, hash } = newLinkToken();
    const expiresAt = new Date(Date.now() + RESET_LINK_HOURS * 60 * 60 * 1000);
    await this.resets.insert(user.companyId, newUuid(), user.userId, hash, expiresAt);
    await this.mails.reset({
      to: user.email,
      locale: user.locale,
      timeZone: user.timeZone,
      companyName: user.companyName,
      path: `/password-reset/${token}`,
      expiresAt,
    });
    await this.resets.prune();
  }
}
