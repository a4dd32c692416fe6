// SQL for dunning policies; a company without a stored policy has the defaults.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { completePolicy, type DunningPolicy } from './dunning-policy.js';

@Injectable()
export class DunningPolicyRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async get(companyId: string, manager: EntityManager = this.db.manager): Promise<DunningPolicy> {
    const rows: Array<{ policy: DunningPolicy }> = await manager.query(`SELECT policy FROM dunning_policies WHERE company_id = $1`, [companyId]);
    return completePolicy(rows[0]?.policy);
  }

  async save(companyId: string, policy: DunningPolicy): Promise<void> {
    await this.db.query(
      `INSERT INTO dunning_policies (company_id, policy) VALUES ($1, $2)
       ON CONFLICT (company_id) DO UPDATE SET policy = EXCLUDED.policy, updated_at = now()`,
      [companyId, JSON.stringify(policy)],
    );
  }
}
