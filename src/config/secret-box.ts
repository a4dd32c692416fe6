// Secrets stored at rest (ERP passwords, client secrets, private keys): AES-256-GCM under the key from
// SECRETS_KEY. A sealed value is bound to its owner (associated data), so a ciphertext copied to
// another row or company does not open.
import { Inject, Injectable, Logger } from '@nestjs/common';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { APP_CONFIG, type AppConfig, secretsKeyBytes } from './app.config.js';
import { ConfigError } from './config-error.js';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The well-known key of development and test databases: it protects nothing and says so at start. */
const DEVELOPMENT_KEY = createHash('sha256').update('receivables-service development secrets key (not secret)').digest();

export class SecretBoxError extends Error {}

/** version (1 byte) ‖ iv (12) ‖ tag (16) ‖ ciphertext. */
export function seal(key: Buffer, plaintext: string, associatedData: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), ciphertext]);
}

export function open(key: Buffer, sealed: Buffer, associatedData: string): string {
  if (sealed.length < 1 + IV_BYTES + TAG_BYTES || sealed[0] !== VERSION) throw new SecretBoxError('not a sealed secret of a known version');
  const iv = sealed.subarray(1, 1 + IV_BYTES);
  const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(Buffer.from(associatedData, 'utf8'));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError('the secret does not open with this key (SECRETS_KEY changed, or the value was moved)');
  }
}

@Injectable()
export class SecretBox {
  private readonly logger = new Logger(SecretBox.name);
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.key = this.resolveKey(config);
  }

  seal(plaintext: string, associatedData: string): Buffer {
    return seal(this.key, plaintext, associatedData);
  }

  open(sealed: Buffer, associatedData: string): string {
    return open(this.key, sealed, associatedData);
  }

  /** Production cannot start without a key (app.config.ts); development and test fall back loudly. */
  private resolveKey(config: AppConfig): Buffer {
    if (config.secretsKey) {
      const key = secretsKeyBytes(config.secretsKey);
      if (!key) throw new ConfigError('SECRETS_KEY must be exactly 32 bytes (64 hex digits or 44 base64 characters)');
      return key;
    }
    this.logger.warn(
      'SECRETS_KEY is not set: stored ERP secrets are encrypted with a FIXED DEVELOPMENT KEY that anyone can read in the source. ' +
        'Never store real credentials like this; set SECRETS_KEY (32 bytes, hex or base64).',
    );
    return DEVELOPMENT_KEY;
  }
}
