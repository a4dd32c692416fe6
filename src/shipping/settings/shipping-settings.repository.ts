// SQL for shipping settings; a company without a stored row has the defaults.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';
import { type ShippingSettings, withDefaults } from './shipping-settings.js';

const SETTINGS_OF = statement<{ settings: Partial<ShippingSettings> }>('shipping.settings_of_company', 'SELECT settings FROM shipping_settings WHERE company_id = $1');
const SAVE = statement(
  'shipping.save_settings',
  `INSERT INTO shipping_settings (company_id, settings) VALUES ($1, $2)
   ON CONFLICT (company_id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = now()`,
);

@Injectable()
export class ShippingSettingsRepository {
  constructor(private readonly sql: Sql) {}

  async get(companyId: string, manager?: EntityManager): Promise<ShippingSettings> {
    const row = await this.sql.first(SETTINGS_OF, [companyId], manager);
    return withDefaults(row?.settings ?? null);
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }

  async save(companyId: string, settings: ShippingSettings, manager?: EntityManager): Promise<void> {
    await this.sql.run(SAVE, [companyId, JSON.stringify(settings)], manager);
  }
}
