// The shipping settings page as the service sees the company now: the form's values from the API's own
// serializer, and whether a logo is stored. Shared by the settings form and the logo actions.
import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { CompanyContext } from '../../auth/principal.js';
import { serializeShippingSettings } from '../../shipping/settings/shipping-settings.serializer.js';
import { ShippingSettingsService } from '../../shipping/settings/shipping-settings.service.js';
import type { PageContext } from '../views/layout.js';
import { WebPages } from '../web-pages.js';
import type { FormValues } from './views/form-fields.js';
import { ShippingSettingsPage, type ShippingSettingsProps } from './views/shipping-settings-page.js';

type Extras = Partial<Pick<ShippingSettingsProps, 'values' | 'errors' | 'logoError' | 'notice' | 'error'>>;

@Injectable()
export class ShippingSettingsView {
  constructor(
    private readonly pages: WebPages,
    readonly service: ShippingSettingsService,
  ) {}

  async send(res: Response, status: number, company: CompanyContext, page: PageContext, extras: Extras = {}): Promise<void> {
    const [current, logo] = await Promise.all([this.service.get(company), this.service.logo(company)]);
    const values = extras.values ?? formValuesOf(serializeShippingSettings(current).shipping_settings);
    const html = ShippingSettingsPage({ page, errors: {}, ...extras, values, hasLogo: logo !== null });
    await this.pages.send(res, status, html);
  }
}

/** The form's values by field name: texts as they are, booleans as 'true'/'false', a list one entry per line. */
export function formValuesOf(source: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const [key, value] of Object.entries(source)) {
    if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number') values[key] = String(value);
    else if (Array.isArray(value) && key === 'managing_directors') values[key] = value.join('\n');
  }
  return values;
}
