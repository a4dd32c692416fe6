// Outgoing e-mail: the MailSender over SMTP, or the outbox folder in development and test.
import { Module } from '@nestjs/common';
import { MailSender } from './mail-sender.js';

@Module({ providers: [MailSender], exports: [MailSender] })
export class MailModule {}
