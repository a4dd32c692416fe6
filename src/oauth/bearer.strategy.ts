// `Authorization: Bearer <OAuth access token>` on /v2, with passport-http-bearer. Only the header is
// read (never a token in the query string or the body, which would end up in logs or documents), and
// another scheme is declined so that the route's next strategy is tried.
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy as BearerStrategy, type VerifyFunction } from 'passport-http-bearer';
import type { Principal } from '../auth/principal.js';
import { OAuthService } from './oauth.service.js';

class HeaderBearerStrategy extends BearerStrategy<VerifyFunction> {
  override authenticate(req: Request, options?: object): void {
    // passport adds fail() to the strategy instance it runs.
    if (!/^Bearer\s/i.test(req.headers.authorization ?? '')) return (this as unknown as { fail(status: number): void }).fail(401);
    super.authenticate({ headers: { authorization: req.headers.authorization } } as Request, options);
  }
}

@Injectable()
export class BearerTokenStrategy extends PassportStrategy(HeaderBearerStrategy, 'bearer') {
  constructor(private readonly oauth: OAuthService) {
    super();
  }

  validate(token: string): Promise<Principal> {
    return this.oauth.authenticateAccessToken(token);
  }
}
