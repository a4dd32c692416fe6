// The account e-mails (password reset, invitation), in the recipient's language, through the service's
// mail sender (SMTP, or the outbox folder in development).
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import { MailSender } from '../../mail/mail-sender.js';
import { lang, type Locale } from '../i18n.js';

export interface AccountMail {
  to: string;
  locale: Locale;
  timeZone: string;
  companyName: string;
  /** The path of the link (with its token) under the public URL. */
  path: string;
  expiresAt: Date;
}

@Injectable()
export class AccountMails {
  constructor(
    private readonly sender: MailSender,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  link(path: string): string {
    return `${this.config.publicUrl}${path}`;
  }

  async reset(mail: AccountMail): Promise<void> {
    const { t } = lang(mail.locale, mail.timeZone);
    await this.send(mail, t('app.name'), t('account.mail.resetSubject'), [
      t('account.mail.resetBody', { email: mail.to, company: mail.companyName }),
      this.link(mail.path),
      t('account.mail.resetExpiry', { until: lang(mail.locale, mail.timeZone).dateTime(mail.expiresAt) }),
      t('account.mail.resetIgnore'),
    ]);
  }

  /** `inviter`: the inviting user's e-mail address, or null for the operator. */
  async invitation(mail: AccountMail, inviter: string | null): Promise<void> {
    const { t, dateTime } = lang(mail.locale, mail.timeZone);
    const company = mail.companyName;
    await this.send(mail, company, t('account.mail.inviteSubject', { company }), [
      t('account.mail.inviteBody', { inviter: inviter ?? t('account.mail.inviteOperator'), company }),
      this.link(mail.path),
      t('account.mail.inviteExpiry', { until: dateTime(mail.expiresAt) }),
      t('account.mail.inviteIgnore'),
    ]);
  }

  private async send(mail: AccountMail, fromName: string, subject: string, paragraphs: string[]): Promise<void> {
    const { t } = lang(mail.locale, mail.timeZone);
    const text = [t('account.mail.salutation'), ...paragraphs, `${t('account.mail.closing')}\n${t('account.mail.signature')}`].join('\n\n');
    await this.sender.send({
      messageId: `<${randomUUID()}@${this.config.mail.messageIdDomain}>`,
      fromName,
      to: [{ name: '', address: mail.to }],
      subject,
      text: `${text}\n`,
      attachments: [],
    });
  }
}
