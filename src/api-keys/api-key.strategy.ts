// `Authorization: ApiKey <key>` (push), as a passport strategy. Another scheme is declined so that the
// route's next strategy is tried; a malformed, unknown, revoked or expired key is a 401 saying which.
// A key near its expiry is announced on the response: `Sunset` (RFC 8594, HTTP date) and
// `API-Key-Expires-At` (ISO 8601).
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-custom';
import type { Principal } from '../auth/principal.js';
import { formatDateTime } from '../common/dates.js';
import { AppError } from '../common/errors.js';
import { ApiKeysService } from './api-keys.service.js';

const API_KEY_HEADER = /^ApiKey\s+([A-Za-z0-9_-]{1,512})\s*$/i;

@Injectable()
export class ApiKeyStrategy extends PassportStrategy(Strategy, 'apikey') {
  constructor(private readonly keys: ApiKeysService) {
    super();
  }

  async validate(req: Request): Promise<Principal | null> {
    const header = req.header('authorization');
    if (!header || !/^ApiKey(\s|$)/i.test(header)) return null;
    const match = API_KEY_HEADER.exec(header);
    if (!match) throw new AppError('auth.invalid_credential', 'The Authorization header must be "ApiKey <API key>"');
    const { principal, expiresSoon } = await this.keys.authenticate(match[1]);
    if (expiresSoon && req.res) {
      req.res.setHeader('Sunset', expiresSoon.toUTCString());
      req.res.setHeader('API-Key-Expires-At', formatDateTime(expiresSoon, principal.company.timeZone) ?? '');
    }
    return principal;
  }
}
