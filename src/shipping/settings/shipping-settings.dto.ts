import { applyDecorators } from '@nestjs/common';
import { IsBIC, IsIBAN, Matches } from 'class-validator';
import { IsEmailAddress, OptionalBoolean, OptionalEnum, OptionalText, OptionalTextList } from '../../common/fields.js';
import { OptionalTaxNumber, OptionalVatId } from '../../common/vat-id.js';
import { COMPANY_SHIPPING_MODES, type CompanyShippingMode } from '../../companies/company.entity.js';
import { LEGAL_FORMS, type LegalForm } from './legal-details.js';

const Email = () => applyDecorators(OptionalText(254), IsEmailAddress());
/** Templates: empty resets to the German default. */
const Template = (maxLength: number) => OptionalText(maxLength);

/** PATCH /api/v1/shipping_settings: the fields sent change, the others stay; empty text clears a field. */
export class UpdateShippingSettingsDto {
  /** The company level of mode resolution (invoice → customer → company); empty: back to email. */
  @OptionalEnum(COMPANY_SHIPPING_MODES, 'the mode of documents whose invoice and customer name none; empty: email')
  readonly shipping_mode?: CompanyShippingMode | null;
  /** New invoices are shipped at once unless the request says otherwise (options[autosend]). */
  @OptionalBoolean() readonly autosend?: boolean;
  /** New invoices are imported as sent, shipped by the client (options[autoskip_shipping]). */
  @OptionalBoolean() readonly autoskip_shipping?: boolean;
  @OptionalText(200) readonly sender_name?: string | null;
  @OptionalText(200) readonly sender_street?: string | null;
  @OptionalText(20) readonly sender_zip?: string | null;
  @OptionalText(100) readonly sender_city?: string | null;
  @OptionalText(2) @Matches(/^[A-Za-z]{2}$/, { message: '$property must be an ISO country code' }) readonly sender_country_code?:
    string | null;
  @OptionalText(50) readonly sender_phone?: string | null;
  @Email() readonly sender_email?: string | null;
  @OptionalText(200) readonly bank_account_holder?: string | null;
  @OptionalText(42) @IsIBAN(undefined, { message: '$property must be an IBAN' }) readonly bank_iban?: string | null;
  @OptionalText(11) @IsBIC({ message: '$property must be a BIC' }) readonly bank_bic?: string | null;
  @OptionalText(200) readonly bank_name?: string | null;
  @Email() readonly reply_to?: string | null;
  @OptionalEnum(LEGAL_FORMS, 'the legal form; it decides which legal details letters must show') readonly legal_form?: LegalForm | null;
  @OptionalText(100, 'Berlin') readonly registered_office?: string | null;
  @OptionalText(100, 'Amtsgericht Charlottenburg') readonly register_court?: string | null;
  @OptionalText(50, 'HRB 12345') readonly register_number?: string | null;
  /** Replaces the list; empty or null clears it. */
  @OptionalTextList(20, 200, 'Erika Mustermann') readonly managing_directors?: string[] | null;
  /** A partnership whose liable partner is a company (GmbH & Co. KG): that partner's firm, seat and register. */
  @OptionalText(300, 'Muster Verwaltungs GmbH, Sitz Berlin, Amtsgericht Charlottenburg, HRB 99999') readonly general_partner?:
    string | null;
  @OptionalVatId() readonly vat_id?: string | null;
  @OptionalTaxNumber() readonly tax_number?: string | null;
  @OptionalBoolean() readonly cover_page?: boolean;
  /** Uploads and pushes of PDFs with active content (JavaScript, /Launch, embedded files) are refused with 422. */
  @OptionalBoolean() readonly refuse_active_pdf?: boolean;
  @Template(300) readonly invoice_email_subject?: string | null;
  @Template(10_000) readonly invoice_email_body?: string | null;
  @Template(300) readonly reminder_email_subject?: string | null;
  @Template(10_000) readonly reminder_email_body?: string | null;
  @Template(5_000) readonly cover_letter_text?: string | null;
  @Template(100) readonly reminder1_title?: string | null;
  @Template(100) readonly reminder2_title?: string | null;
  @Template(100) readonly reminder3_title?: string | null;
}
