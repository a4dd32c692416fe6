// A second user of a registered company, as the owner would have invited them: a member (or an owner)
// who signs in with the same PASSWORD. Written straight through the companies repository: the invitation
// flow itself is tested in test/web/account-invitations.e2e-spec.ts.
import type { INestApplication } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hashPassword } from '../../src/auth/secrets.js';
import { CompaniesRepository } from '../../src/companies/companies.repository.js';
import { Sql } from '../../src/database/sql/sql.js';
import { PASSWORD, type WebUser } from './web-support.js';

let seq = 0;

export async function addUser(app: INestApplication, owner: WebUser, role: 'owner' | 'member' = 'member'): Promise<WebUser> {
  const email = `${role}${++seq}-${process.pid}-${randomUUID().slice(0, 8)}@example.com`;
  const passwordHash = await hashPassword(PASSWORD);
  await app
    .get(Sql)
    .transaction((manager) =>
      app
        .get(CompaniesRepository)
        .insertUser(owner.company.id.slice(owner.company.id.indexOf('-') + 1), randomUUID(), email, passwordHash, role, manager),
    );
  return { company: owner.company, email };
}
