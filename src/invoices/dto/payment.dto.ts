import type { Decimal } from '../../common/money.js';
import { OptionalBoolean, OptionalDate, OptionalText, RequiredAmount } from '../../common/fields.js';

/** POST /api/v1/invoices/<id>/payments. Amounts are positive; a mistaken payment is deleted, not negated. */
export class CreatePaymentDto {
  @RequiredAmount({ positive: true }) readonly amount!: Decimal;
  @OptionalDate('the day the money arrived; default today') readonly payment_date?: string | null;
  @OptionalText(255) readonly external_id?: string | null;
  @OptionalText(2000) readonly note?: string | null;
  @OptionalBoolean() readonly inkasso_payment?: boolean;
}
