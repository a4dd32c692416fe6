// Reading and changing a company's shipping settings — its defaults for new invoices (shipping mode,
// autosend, autoskip) and the letter and e-mail settings; templates may only use known placeholders.
import { Injectable } from '@nestjs/common';
import type { CompanyContext } from '../../auth/principal.js';
import { defined } from '../../common/defined.js';
import { AppError, type FieldError, validationFailed } from '../../common/errors.js';
import { CompaniesRepository } from '../../companies/companies.repository.js';
import type { CompanyShippingDefaults } from '../../companies/company.entity.js';
import { isEmbeddable, type LetterLogo, LOGO_MAX_BYTES, logoTypeOf } from '../../letters/letter-logo.js';
import type { UpdateShippingSettingsDto } from './shipping-settings.dto.js';
import {
  DEFAULT_TEMPLATES,
  PLACEHOLDERS,
  type ShippingSettings,
  type ShippingTemplates,
  unknownPlaceholders,
} from './shipping-settings.js';
import { ShippingSettingsRepository } from './shipping-settings.repository.js';

type TemplateField =
  'invoice_email_subject' | 'invoice_email_body' | 'reminder_email_subject' | 'reminder_email_body' | 'cover_letter_text';
type TemplateKey = Exclude<keyof ShippingTemplates, 'reminderTitles'>;

const TEMPLATE_FIELDS: Record<TemplateField, TemplateKey> = {
  invoice_email_subject: 'invoiceEmailSubject',
  invoice_email_body: 'invoiceEmailBody',
  reminder_email_subject: 'reminderEmailSubject',
  reminder_email_body: 'reminderEmailBody',
  cover_letter_text: 'coverLetterText',
};

export interface CompanyShippingSettings {
  defaults: CompanyShippingDefaults;
  settings: ShippingSettings;
}

@Injectable()
export class ShippingSettingsService {
  constructor(
    private readonly settings: ShippingSettingsRepository,
    private readonly companies: CompaniesRepository,
  ) {}

  async get(company: CompanyContext): Promise<CompanyShippingSettings> {
    const [settings, defaults] = await Promise.all([this.settings.get(company.id), this.defaultsOf(company.id)]);
    return { settings, defaults };
  }

  async update(company: CompanyContext, dto: UpdateShippingSettingsDto): Promise<CompanyShippingSettings> {
    const current = await this.settings.get(company.id);
    const errors: FieldError[] = [];
    const was = await this.defaultsOf(company.id);
    const defaults: CompanyShippingDefaults = {
      shippingMode: dto.shipping_mode === undefined ? was.shippingMode : (dto.shipping_mode ?? 'email'),
      autosend: dto.autosend ?? was.autosend,
      autoskipShipping: dto.autoskip_shipping ?? was.autoskipShipping,
    };
    if (defaults.autosend && defaults.autoskipShipping) {
      const message = 'autosend and autoskip_shipping exclude each other: autoskip imports invoices as sent without shipping them';
      errors.push({ field: 'autosend', message }, { field: 'autoskip_shipping', message });
    }
    const templates: ShippingTemplates = { ...current.templates, reminderTitles: [...current.templates.reminderTitles] };
    for (const [field, key] of Object.entries(TEMPLATE_FIELDS) as Array<[TemplateField, TemplateKey]>) {
      const value = dto[field];
      if (value === undefined) continue;
      const unknown = value === null ? [] : unknownPlaceholders(value);
      if (unknown.length)
        errors.push({
          field,
          message: `unknown placeholders ${unknown.map((n) => `{${n}}`).join(', ')}; known: ${PLACEHOLDERS.join(', ')}`,
        });
      templates[key] = value ?? DEFAULT_TEMPLATES[key];
    }
    ([dto.reminder1_title, dto.reminder2_title, dto.reminder3_title] as const).forEach((title, i) => {
      if (title !== undefined) templates.reminderTitles[i] = title ?? DEFAULT_TEMPLATES.reminderTitles[i];
    });
    if (errors.length) throw validationFailed(errors);
    const next: ShippingSettings = {
      ...current,
      ...defined({
        senderName: dto.sender_name,
        senderStreet: dto.sender_street,
        senderZip: dto.sender_zip,
        senderCity: dto.sender_city,
        senderPhone: dto.sender_phone,
        senderEmail: dto.sender_email,
        bankAccountHolder: dto.bank_account_holder,
        bankIban: dto.bank_iban === undefined ? undefined : (dto.bank_iban?.replace(/\s+/g, '').toUpperCase() ?? null),
        bankBic: dto.bank_bic === undefined ? undefined : (dto.bank_bic?.toUpperCase() ?? null),
        bankName: dto.bank_name,
        replyTo: dto.reply_to,
        legalForm: dto.legal_form,
        registeredOffice: dto.registered_office,
        registerCourt: dto.register_court,
        registerNumber: dto.register_number,
        managingDirectors: dto.managing_directors === undefined ? undefined : (dto.managing_directors ?? []),
        generalPartner: dto.general_partner,
        vatId: dto.vat_id,
        taxNumber: dto.tax_number,
        coverPage: dto.cover_page,
        refuseActivePdf: dto.refuse_active_pdf,
      }),
      senderCountryCode:
        dto.sender_country_code === undefined ? current.senderCountryCode : (dto.sender_country_code?.toUpperCase() ?? 'DE'),
      templates,
    };
    await this.settings.transaction(async (manager) => {
      await this.settings.save(company.id, next, manager);
      await this.companies.updateShippingDefaults(company.id, defaults, manager);
    });
    return { settings: next, defaults };
  }

  /** The letterhead's logo of every letter rendered from now on: a PNG or JPEG (by its bytes) of at most LOGO_MAX_BYTES. */
  async setLogo(company: CompanyContext, bytes: Uint8Array): Promise<LetterLogo> {
    const refuse = (message: string) => validationFailed([{ field: 'logo', message }]);
    if (bytes.length === 0) throw refuse('logo is required: a PNG or JPEG file');
    if (bytes.length > LOGO_MAX_BYTES) throw refuse(`logo must not be larger than ${LOGO_MAX_BYTES / 1024} KB`);
    const contentType = logoTypeOf(bytes);
    if (!contentType) throw refuse('logo must be a PNG or JPEG image');
    const logo = { contentType, bytes };
    if (!(await isEmbeddable(logo))) throw refuse('logo cannot be read as a PNG or JPEG image');
    await this.settings.saveLogo(company.id, logo);
    return logo;
  }

  /** The letterhead's logo, or null. */
  logo(company: CompanyContext): Promise<LetterLogo | null> {
    return this.settings.logo(company.id);
  }

  async removeLogo(company: CompanyContext): Promise<void> {
    await this.settings.removeLogo(company.id);
  }

  private async defaultsOf(companyId: string): Promise<CompanyShippingDefaults> {
    const found = await this.companies.findById(companyId);
    if (!found) throw new AppError('company.not_found', 'The company of this credential no longer exists');
    return { shippingMode: found.shippingMode, autosend: found.autosend, autoskipShipping: found.autoskipShipping };
  }
}
