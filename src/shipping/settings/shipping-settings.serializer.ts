// The wire JSON of a company's shipping settings (GET/PATCH /api/v1/shipping_settings).
import { legalDetailsWarnings } from './legal-details.js';
import { PLACEHOLDERS } from './shipping-settings.js';
import type { CompanyShippingSettings } from './shipping-settings.service.js';

export function serializeShippingSettings({ settings: s, defaults }: CompanyShippingSettings) {
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
      placeholders: PLACEHOLDERS,
      /** What the company's letters lack, e.g. legal details its legal form requires. */
      warnings: legalDetailsWarnings(s),
    },
  };
}
