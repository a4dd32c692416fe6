// Sign-in with a company user's e-mail and password (scrypt, as registration stores it).
import { Injectable } from '@nestjs/common';
import { verifyPassword } from '../auth/secrets.js';
import { type LoginCandidate, WebUsersRepository } from './web-users.repository.js';

/** Checked when the e-mail is unknown, so an unknown address takes as long as a wrong password. */
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

@Injectable()
export class WebAuthService {
  constructor(private readonly users: WebUsersRepository) {}

  async check(email: string, password: string): Promise<LoginCandidate | undefined> {
    const user = email ? await this.users.findByEmail(email) : undefined;
    const valid = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH).catch(() => false);
    return user && valid ? user : undefined;
  }
}
