// SQL for shipping settings and the letterhead's logo; a company without a stored row has the defaults.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';
import type { LetterLogo, LogoType } from '../../letters/letter-logo.js';
import { type ShippingSettings, withDefaults } from './shipping-settings.js';

const SETTINGS_OF = statement<{ settings: Partial<ShippingSettings> | null; content_type: LogoType | null; image: Buffer | null }>(
  'shipping.settings_of_company',
  `SELECT s.settings, l.content_type, l.image
     FROM (SELECT $1::uuid AS company_id) c
     LEFT JOIN shipping_settings s ON s.company_id = c.company_id
     LEFT JOIN letter_logos l ON l.company_id = c.company_id`,
);
const SAVE = statement(
  'shipping.save_settings',
  `INSERT INTO shipping_settings (company_id, settings) VALUES ($1, $2)
   ON CONFLICT (company_id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = now()`,
);
const SAVE_LOGO = statement(
  'shipping.save_letter_logo',
  `INSERT INTO letter_logos (company_id, content_type, image) VALUES ($1, $2, $3)
   ON CONFLICT (company_id) DO UPDATE SET content_type = EXCLUDED.content_type, image = EXCLUDED.image, updated_at = now()`,
);
const REMOVE_LOGO = statement('shipping.remove_letter_logo', 'DELETE FROM letter_logos WHERE company_id = $1');

@Injectable()
export class ShippingSettingsRepository {
  constructor(private readonly sql: Sql) {}

  async get(companyId: string, manager?: EntityManager): Promise<ShippingSettings> {
    const row = await this.sql.first(SETTINGS_OF, [companyId], manager);
    const logo = row?.content_type && row.image ? { contentType: row.content_type, bytes: new Uint8Array(row.image) } : null;
    return withDefaults(row?.settings ?? null, logo);
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }

  async save(companyId: string, settings: ShippingSettings, manager?: EntityManager): Promise<void> {
    const { logo: _logo, ...stored } = settings;
    await this.sql.run(SAVE, [companyId, JSON.stringify(stored)], manager);
  }

  async saveLogo(companyId: string, logo: LetterLogo): Promise<void> {
    await this.sql.run(SAVE_LOGO, [companyId, logo.contentType, Buffer.from(logo.bytes)]);
  }

  async removeLogo(companyId: string): Promise<void> {
    await this.sql.run(REMOVE_LOGO, [companyId]);
  }
}
