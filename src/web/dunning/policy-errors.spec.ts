// The policy form’s field errors: every refusal the API’s DTO gives the form, in German (and English).
import { createValidationPipe } from '../../common/validation.js';
import { AppError } from '../../common/errors.js';
import { DunningPolicyDto } from '../../dunning/dto/dunning-policy.dto.js';
import { lang } from '../i18n.js';
import { refusalOf } from './dunning-pages.js';
import { policyFieldErrors } from './policy-errors.js';

/** The API's field errors for a submitted form, as the policy form receives them. */
async function apiErrors(form: Record<string, unknown>): Promise<Record<string, string>> {
  try {
    await createValidationPipe().transform(form, { type: 'body', metatype: DunningPolicyDto });
  } catch (error) {
    if (error instanceof AppError) return refusalOf(error).fields;
    throw error;
  }
  throw new Error('the form was accepted');
}

const level = (fields: Record<string, string>) => [{ ...fields }, {}, {}];

describe('policyFieldErrors', () => {
  it.each([
    ['grace_days', { grace_days: '500' }, 'Bitte geben Sie höchstens 90 an.'],
    ['collection_days', { collection_days: '-1' }, 'Bitte geben Sie mindestens 0 an.'],
    ['proposal_valid_days', { proposal_valid_days: '2.5' }, 'Bitte geben Sie eine ganze Zahl an.'],
    [
      'levels[0][fee]',
      { levels: level({ fee: 'abc' }) },
      'Bitte geben Sie einen Betrag ab 0 mit höchstens zwei Nachkommastellen an, z. B. 5,00.',
    ],
    [
      'levels[0][minimum_open_amount]',
      { levels: level({ minimum_open_amount: '1,234' }) },
      'Bitte geben Sie einen Betrag ab 0 mit höchstens zwei Nachkommastellen an, z. B. 5,00.',
    ],
    ['levels[0][payment_term_days]', { levels: level({ payment_term_days: '0' }) }, 'Bitte geben Sie mindestens 1 an.'],
    ['levels[0][text]', { levels: level({ text: 'x'.repeat(2001) }) }, 'Der Text darf höchstens 2000 Zeichen lang sein.'],
    ['run_at', { run_at: '25:00' }, 'Bitte geben Sie die Uhrzeit als SS:MM an, z. B. 06:00.'],
    ['auto_ship', { auto_ship: 'vielleicht' }, 'Bitte wählen Sie einen der angebotenen Werte.'],
    ['default_starts', { default_starts: 'never' }, 'Bitte wählen Sie einen der angebotenen Werte.'],
  ])('shows the API’s refusal of %s in German', async (field, form, german) => {
    const errors = await apiErrors(form);
    expect(policyFieldErrors(lang('de', 'Europe/Berlin'), errors)[field]).toBe(german);
  });

  it('speaks English to an English page, and shows a message it does not know as the API wrote it', () => {
    const en = lang('en', 'Europe/Berlin');
    expect(policyFieldErrors(en, { grace_days: 'grace_days must not be greater than 90' })).toEqual({
      grace_days: 'Please enter 90 at most.',
    });
    expect(policyFieldErrors(en, { levels: 'levels must contain at least 3 elements' })).toEqual({
      levels: 'levels must contain at least 3 elements',
    });
  });
});
