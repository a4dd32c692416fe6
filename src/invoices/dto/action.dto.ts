import { OptionalText } from '../../common/fields.js';

/** The optional body of a manual status action. */
export class InvoiceActionDto {
  @OptionalText(1000) readonly reason?: string | null;
}
