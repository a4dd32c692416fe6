// Sends e-mail: through SMTP when SMTP_URL is set (TLS 1.2 at least, STARTTLS required in production,
// certificates verified), into the outbox folder in development and test, or not at all in production
// without SMTP_URL (every attempt then fails permanently and the delivery is flagged).
import { Inject, Injectable, Logger } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import type { MailConfig } from '../config/mail.config.js';
import { classifySmtpError, MailError } from './mail-errors.js';
import { writeToOutbox } from './outbox.js';

export interface MailAddress {
  name: string;
  address: string;
}

export interface OutgoingMail {
  /** `<…@…>`, chosen by the caller and stable across retries of the same message. */
  messageId: string;
  /** Display name of the From address (the address itself is MAIL_FROM). */
  fromName: string;
  replyTo?: string;
  to: MailAddress[];
  subject: string;
  text: string;
  attachments: Array<{ filename: string; content: Buffer }>;
}

export interface MailReceipt {
  transport: 'smtp' | 'outbox';
  messageId: string;
  accepted: string[];
  rejected: string[];
  /** The server's final reply ("250 2.0.0 Ok: queued as …") or the outbox file. */
  providerId: string;
}

@Injectable()
export class MailSender {
  private readonly logger = new Logger(MailSender.name);
  private readonly config: MailConfig;
  private readonly transporter?: Transporter;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.config = config.mail;
    if (this.config.transport === 'smtp') this.transporter = nodemailer.createTransport(smtpOptions(this.config));
    else if (this.config.transport === 'outbox') this.transporter = nodemailer.createTransport({ streamTransport: true, buffer: true });
    else this.logger.warn('SMTP_URL is not set: e-mail deliveries fail and are flagged until it is');
  }

  async send(mail: OutgoingMail): Promise<MailReceipt> {
    if (!this.transporter) throw new MailError('SMTP_URL is not configured: the service cannot send e-mail', true);
    const message = {
      messageId: mail.messageId,
      from: { name: mail.fromName, address: this.config.from },
      replyTo: mail.replyTo,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      // Marks the mail as automatic (RFC 3834), so that vacation responders stay quiet.
      headers: { 'Auto-Submitted': 'auto-generated' },
      attachments: mail.attachments.map((a) => ({ filename: a.filename, content: a.content, contentType: 'application/pdf' })),
    };
    let info: { accepted?: unknown[]; rejected?: unknown[]; response?: string; message?: unknown };
    try {
      info = await this.transporter.sendMail(message);
    } catch (error) {
      throw classifySmtpError(error);
    }
    const receipt = { messageId: mail.messageId, accepted: addresses(info.accepted), rejected: addresses(info.rejected) };
    if (this.config.transport === 'outbox') {
      const file = await writeToOutbox(this.config.outboxDir, mail.messageId, info.message as Buffer);
      return { ...receipt, transport: 'outbox', accepted: mail.to.map((t) => t.address), providerId: file };
    }
    return { ...receipt, transport: 'smtp', providerId: info.response ?? '' };
  }
}

function smtpOptions(config: MailConfig) {
  const url = new URL(config.smtpUrl as string);
  const secure = url.protocol === 'smtps:';
  const ms = config.timeoutSeconds * 1000;
  return {
    host: url.hostname,
    port: Number(url.port) || (secure ? 465 : 587),
    secure,
    name: config.heloName,
    // smtp:// upgrades with STARTTLS whenever the server offers it; requireTLS refuses a server that does not.
    requireTLS: !secure && config.requireTls,
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    tls: { minVersion: 'TLSv1.2' as const, rejectUnauthorized: true, ca: config.ca },
    connectionTimeout: ms,
    greetingTimeout: ms,
    socketTimeout: ms * 2,
    // Attachments are buffers only: the message can never read a file or URL of the server.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

function addresses(list: unknown[] | undefined): string[] {
  return (list ?? []).map((entry) => (typeof entry === 'string' ? entry : ((entry as { address?: string }).address ?? String(entry))));
}
