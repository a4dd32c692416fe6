// SQL for shipping settings; a company without a stored row has the defaults.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { type ShippingSettings, withDefaults } from './shipping-settings.js';

@Injectable()
export class ShippingSettingsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async get(companyId: string, manager: EntityManager = this.db.manager): Promise<ShippingSettings> {
    const rows: Array<{ settings: Partial<ShippingSettings> }> = await manager.query(`SELECT settings FROM shipping_settings WHERE company_id = $1`, [companyId]);
    return withDefaults(rows[0]?.settings ?? null);
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async save(companyId: string, settings: ShippingSettings, manager: EntityManager = this.db.manager): Promise<void> {
    await manager.query(
      `INSERT INTO shipping_settings (company_id, settings) VALUES ($1, $2)
       ON CONFLICT (company_id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = now()`,
      [companyId, JSON.stringify(settings)],
    );
  }
}
