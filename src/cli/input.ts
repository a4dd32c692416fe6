// The CLI's arguments checked by the same rules as the HTTP API (RegistrationDto, the password policy),
// before anything touches the database. Messages name the command-line flag, not the form field.
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { randomBytes } from 'node:crypto';
import type { UserRole } from '../companies/companies.repository.js';
import { RegistrationDto } from '../companies/dto/registration.dto.js';
import { passwordWeaknesses } from '../auth/secrets.js';
import { isStorableText } from '../common/text.js';
import { flattenValidationErrors } from '../common/validation.js';
import { isLocale, type Locale } from '../web/i18n.js';
import { checkedEmail } from '../web/account/account-input.js';
import { BASE_RATE, BASE_RATE_FROM, normalizeRate } from '../dunning/base-rates.repository.js';

export class UsageError extends Error {}

export type Flags = Record<string, string | undefined>;

const FLAG_OF: Record<string, string> = { company_name: '--name', email: '--email', password: '--password' };

export interface RegistrationInput {
  name: string;
  email: string;
  password: string;
  /** True when the operator gave no --password and one was generated (it is printed once). */
  generated: boolean;
}

/** A password that meets the policy, for an operator who did not choose one. */
function generatedPassword(): string {
  return `${randomBytes(12).toString('base64url')}aA1!`;
}

export async function registrationInput(flags: Flags): Promise<RegistrationInput> {
  const generated = flags.password === undefined;
  const password = flags.password ?? generatedPassword();
  const dto = plainToInstance(RegistrationDto, { company_name: flags.name, email: flags.email, password });
  const problems = flattenValidationErrors(await validate(dto, { forbidUnknownValues: false })).map(({ field, message }) =>
    message.replace(new RegExp(`^${field}\\b`), FLAG_OF[field] ?? field),
  );
  const weaknesses = typeof dto.password === 'string' ? passwordWeaknesses(dto.password) : [];
  if (weaknesses.length > 0) problems.push(`--password needs ${weaknesses.join(', ')}`);
  if (problems.length > 0) throw new UsageError([...new Set(problems)].join('; '));
  return { name: dto.company_name, email: dto.email, password, generated };
}

const COMPANY_ID = /^cmp-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function tokenInput(flags: Flags): { company: string; name: string } {
  const company = flags.company?.trim();
  if (!company) throw new UsageError('--company is required (the cmp-… id that company:create printed)');
  if (!COMPANY_ID.test(company)) throw new UsageError(`--company must be a company id like cmp-<uuid>, got "${company}"`);
  const name = flags.name?.trim() || 'cli';
  if (name.length > 100 || !isStorableText(name)) throw new UsageError('--name must be at most 100 characters, without NUL characters');
  return { company, name };
}

/** base-rate:set: --from the 1 January or 1 July it takes effect, --rate in percent (may be negative). */
export function baseRateInput(flags: Flags): { validFrom: string; rate: string } {
  const validFrom = flags.from?.trim() ?? '';
  if (!BASE_RATE_FROM.test(validFrom))
    throw new UsageError(`--from must be a 1 January or 1 July as YYYY-01-01 or YYYY-07-01, got "${validFrom}"`);
  const rate = normalizeRate(flags.rate ?? '');
  if (!BASE_RATE.test(rate))
    throw new UsageError(`--rate must be the base rate in percent with at most two decimals, e.g. 1.27 or -0.88, got "${rate}"`);
  return { validFrom, rate };
}

/**
 * user:invite: --company the cmp-… id, --email the invitee's address, --role the invitee gets (member by
 * default), --locale of the e-mail and pages (de by default).
 */
export async function inviteInput(flags: Flags): Promise<{ company: string; email: string; role: UserRole; locale: Locale }> {
  const { company } = tokenInput({ company: flags.company });
  if (flags.email === undefined) throw new UsageError('--email is required (the address of the person to invite)');
  const email = await checkedEmail(flags.email);
  if (!email) throw new UsageError(`--email must be an e-mail address, got "${flags.email}"`);
  const locale = flags.locale ?? 'de';
  if (!isLocale(locale)) throw new UsageError(`--locale must be de or en, got "${locale}"`);
  const role = flags.role ?? 'member';
  if (role !== 'owner' && role !== 'member') throw new UsageError(`--role must be owner or member, got "${role}"`);
  return { company, email, role, locale };
}
