// The wire JSON of a company's shipping settings, with its schema (GET/PATCH /api/v1/shipping_settings).
import { COMPANY_SHIPPING_MODES } from '../../companies/company.entity.js';
import { booleanProperty, enumProperty, textProperty } from '../../openapi/properties.js';
import { arrayOf, component, type Wire } from '../../openapi/schema.js';
import { LEGAL_FORMS, legalDetailsWarnings } from './legal-details.js';
import { PLACEHOLDERS } from './shipping-settings.js';
import type { CompanyShippingSettings } from './shipping-settings.service.js';

const optionalText = (description?: string) => textProperty({ nullable: true, ...(description ? { description } : {}) });

export const ShippingSettingsSchema = component('ShippingSettings', {
  shipping_mode: enumProperty(COMPANY_SHIPPING_MODES, { description: 'The company’s default shipping mode' }),
  autosend: booleanProperty({ description: 'Released invoices ship at once' }),
  autoskip_shipping: booleanProperty(),
  sender_name: optionalText('null: the company’s name'),
  sender_street: optionalText(),
  sender_zip: optionalText(),
  sender_city: optionalText(),
  sender_country_code: textProperty({ example: 'DE' }),
  sender_phone: optionalText(),
  sender_email: optionalText(),
  bank_account_holder: optionalText(),
  bank_iban: optionalText(),
  bank_bic: optionalText(),
  bank_name: optionalText(),
  reply_to: optionalText('null: sender_email'),
  legal_form: enumProperty(LEGAL_FORMS, {
    nullable: true,
    description: 'The legal form; it decides which legal details letters must show',
  }),
  registered_office: optionalText('Sitz (registered office)'),
  register_court: optionalText('Registergericht, e.g. Amtsgericht Charlottenburg'),
  register_number: optionalText('e.g. HRB 12345'),
  managing_directors: arrayOf(textProperty(), { nullable: true, description: 'Geschäftsführer / Vorstand' }),
  general_partner: optionalText('GmbH & Co. KG: the general partner’s firm, seat and register (§ 125a (1) HGB)'),
  vat_id: optionalText('USt-IdNr., e.g. DE123456789'),
  tax_number: optionalText('Steuernummer'),
  cover_page: booleanProperty({ description: 'A DIN 5008 cover page in front of invoices sent by post' }),
  refuse_active_pdf: booleanProperty({ description: 'true: PDFs with active content are refused (422 document.active_content)' }),
  invoice_email_subject: textProperty(),
  invoice_email_body: textProperty(),
  reminder_email_subject: textProperty(),
  reminder_email_body: textProperty(),
  cover_letter_text: textProperty(),
  reminder1_title: textProperty({ example: 'Zahlungserinnerung' }),
  reminder2_title: textProperty(),
  reminder3_title: textProperty(),
  placeholders: arrayOf(textProperty(), { description: 'The {placeholders} the texts may use' }),
  warnings: arrayOf(textProperty(), { description: 'What the company’s letters lack, e.g. legal details its legal form requires' }),
});

export const ShippingSettingsResponseSchema = component('ShippingSettingsResponse', { shipping_settings: ShippingSettingsSchema });

export function serializeShippingSettings({ settings: s, defaults }: CompanyShippingSettings): Wire<typeof ShippingSettingsResponseSchema> {
  return {
    shipping_settings: {
      shipping_mode: defaults.shippingMode,
      autosend: defaults.autosend,
      autoskip_shipping: defaults.autoskipShipping,
      sender_name: s.senderName,
      sender_street: s.senderStreet,
      sender_zip: s.senderZip,
      sender_city: s.senderCity,
      sender_country_code: s.senderCountryCode,
      sender_phone: s.senderPhone,
      sender_email: s.senderEmail,
      bank_account_holder: s.bankAccountHolder,
      bank_iban: s.bankIban,
      bank_bic: s.bankBic,
      bank_name: s.bankName,
      reply_to: s.replyTo,
      legal_form: s.legalForm,
      registered_office: s.registeredOffice,
      register_court: s.registerCourt,
      register_number: s.registerNumber,
      managing_directors: s.managingDirectors,
      general_partner: s.generalPartner,
      vat_id: s.vatId,
      tax_number: s.taxNumber,
      cover_page: s.coverPage,
      refuse_active_pdf: s.refuseActivePdf,
      invoice_email_subject: s.templates.invoiceEmailSubject,
      invoice_email_body: s.templates.invoiceEmailBody,
      reminder_email_subject: s.templates.reminderEmailSubject,
      reminder_email_body: s.templates.reminderEmailBody,
      cover_letter_text: s.templates.coverLetterText,
      reminder1_title: s.templates.reminderTitles[0],
      reminder2_title: s.templates.reminderTitles[1],
      reminder3_title: s.templates.reminderTitles[2],
      placeholders: [...PLACEHOLDERS],
      warnings: legalDetailsWarnings(s),
    },
  };
}
