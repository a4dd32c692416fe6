// SQL for shipping settings and the letterhead's logo; a company without a stored row has the defaults.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';
import type { LetterLogo, LogoType } from '../../letters/letter-logo.js';
import { type ShippingSettings, withDefaults } from './shipping-settings.js';

const SETTINGS_OF = statement<{ settings: Partial<ShippingSettings> }>(
  'shipping.settings_of_company',
  'SELECT settings FROM shipping_settings WHERE company_id = $1',
);
// The logo (up to 512 KB) is read only where a letter is drawn or the logo shown: the settings are read
// for every uploaded and pushed invoice too, which never need it.
const LOGO_OF = statement<{ content_type: LogoType; image: Buffer }>(
  'shipping.letter_logo_of_company',
  'SELECT content_type, image FROM letter_logos WHERE company_id = $1',
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

  /** The settings without the logo (`logo` is null): what checks and everything but letters need. */
  async get(companyId: string, manager?: EntityManager): Promise<ShippingSettings> {
    const row = await this.sql.first(SETTINGS_OF, [companyId], manager);
    return withDefaults(row?.settings ?? null);
  }

  /** The settings with the letterhead's logo: for drawing a letter. */
  async forLetters(companyId: string, manager?: EntityManager): Promise<ShippingSettings> {
    const settings = await this.get(companyId, manager);
    return { ...settings, logo: await this.logo(companyId, manager) };
  }

  async logo(companyId: string, manager?: EntityManager): Promise<LetterLogo | null> {
    const row = await this.sql.first(LOGO_OF, [companyId], manager);
    return row ? { contentType: row.content_type, bytes: new Uint8Array(row.image) } : null;
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
