// SQL for dunning policies; a company without a stored policy has the defaults.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Sql } from '../database/sql/sql.js';
import { statement } from '../database/sql/statement.js';
import { completePolicy, type DunningPolicy } from './dunning-policy.js';

const GET = statement<{ policy: DunningPolicy }>('dunning.policy', 'SELECT policy FROM dunning_policies WHERE company_id = $1');
const SAVE = statement(
  'dunning.save_policy',
  `INSERT INTO dunning_policies (company_id, policy) VALUES ($1, $2)
   ON CONFLICT (company_id) DO UPDATE SET policy = EXCLUDED.policy, updated_at = now()`,
);

@Injectable()
export class DunningPolicyRepository {
  constructor(private readonly sql: Sql) {}

  async get(companyId: string, manager?: EntityManager): Promise<DunningPolicy> {
    return completePolicy((await this.sql.first(GET, [companyId], manager))?.policy);
  }

  async save(companyId: string, policy: DunningPolicy): Promise<void> {
    await this.sql.run(SAVE, [companyId, JSON.stringify(policy)]);
  }
}
