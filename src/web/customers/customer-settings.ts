// The settings form read as the API's PATCH /api/v1/customers/<id> reads its body: the same DTO through the
// same global validation pipe, so a value the API refuses is refused here too, and nothing is written.
import { AppError } from '../../common/errors.js';
import { createValidationPipe } from '../../common/validation.js';
import { UpdateCustomerDto } from '../../customers/dto/customer.dto.js';

export const SETTINGS_FIELDS = ['stop_automatic_reminders', 'shipping_mode'] as const;
export type SettingsField = (typeof SETTINGS_FIELDS)[number];

export type SettingsOutcome = { kind: 'saved' } | { kind: 'invalid'; fields: SettingsField[] };

const pipe = createValidationPipe();

export async function readSettingsForm(body: unknown): Promise<{ dto: UpdateCustomerDto } | { invalid: SettingsField[] }> {
  const form = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const input = {
    // A checkbox left unchecked sends nothing: the form always states the whole setting.
    stop_automatic_reminders: form.stop_automatic_reminders ?? 'false',
    // Absent (not from our form) leaves the mode as it is; "" is the company's setting, as in the API.
    shipping_mode: form.shipping_mode,
  };
  try {
    const dto = (await pipe.transform(input, { type: 'body', metatype: UpdateCustomerDto })) as UpdateCustomerDto;
    return { dto };
  } catch (error) {
    if (error instanceof AppError && error.code === 'validation.failed') {
      return { invalid: SETTINGS_FIELDS.filter((field) => error.errors.some((e) => e.field === field)) };
    }
    throw error;
  }
}
