// Typed configuration of outgoing e-mail (src/mail). SMTP_URL holds credentials: sensitive, never logged.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from './config-error.js';

export type MailTransportKind = 'smtp' | 'outbox' | 'disabled';

export interface MailConfig {
  /** smtp: SMTP_URL is set; outbox: development/test without SMTP_URL (.eml files); disabled: production without it. */
  transport: MailTransportKind;
  /** smtp://user:pass@host:587 (STARTTLS) or smtps://user:pass@host:465 (TLS). Sensitive. */
  smtpUrl?: string;
  /** Refuse an smtp:// server that does not offer STARTTLS (always on in production). */
  requireTls: boolean;
  /** PEM bundle of extra trusted CAs for a server with a private certificate (SMTP_CA_FILE). */
  ca?: string;
  /** The envelope sender and From address; the company's name is its display name. */
  from: string;
  /** Right-hand side of the Message-IDs the service generates. */
  messageIdDomain: string;
  /** Where the outbox transport writes its .eml files: `<DATA_DIR>/outbox`. */
  outboxDir: string;
  /** Seconds to wait for a connection, the greeting and each reply before the attempt counts as a timeout. */
  timeoutSeconds: number;
  /**
   * The name the service gives in EHLO (SMTP_HELO_NAME); without it, the machine's host name. A container's
   * host name is a random id that some relays refuse (RFC 5321 4.1.1.1 asks for the client's FQDN).
   */
  heloName?: string;
}

type Env = Record<string, string | undefined>;

const ADDRESS = /^[^\s@<>]+@([^\s@<>]+)$/;
/** A domain name (RFC 5321 4.1.2 Domain): labels of letters, digits and inner hyphens, joined by dots. */
const DOMAIN = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

export function loadMailConfig(env: Env, dataDir: string, production: boolean): MailConfig {
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl !== undefined && !/^smtps?:\/\/[^/]/.test(smtpUrl)) {
    throw new ConfigError('SMTP_URL must start with smtp:// (STARTTLS) or smtps:// (TLS)');
  }
  const from = env.MAIL_FROM || 'rechnungen@localhost';
  const match = ADDRESS.exec(from);
  if (!match) throw new ConfigError(`MAIL_FROM must be a plain e-mail address, got "${from}"`);
  const timeout = Number(env.SMTP_TIMEOUT_SECONDS || 30);
  if (!Number.isFinite(timeout) || timeout <= 0) throw new ConfigError('SMTP_TIMEOUT_SECONDS must be a positive number');
  const heloName = env.SMTP_HELO_NAME || undefined;
  if (heloName !== undefined && !DOMAIN.test(heloName))
    throw new ConfigError(`SMTP_HELO_NAME must be a domain name such as mailer.example.com, got "${heloName}"`);
  return {
    transport: smtpUrl ? 'smtp' : production ? 'disabled' : 'outbox',
    smtpUrl,
    requireTls: production || /^(true|1|yes)$/i.test(env.SMTP_REQUIRE_TLS ?? ''),
    ca: env.SMTP_CA_FILE ? readCa(env.SMTP_CA_FILE) : undefined,
    from,
    messageIdDomain: env.MAIL_MESSAGE_ID_DOMAIN || match[1],
    outboxDir: join(resolve(dataDir), 'outbox'),
    timeoutSeconds: timeout,
    heloName,
  };
}

function readCa(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw new ConfigError(`SMTP_CA_FILE cannot be read: ${path}`);
  }
}
