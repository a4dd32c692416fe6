// The account forms' input, checked by the registration's rules: the e-mail address as RegistrationDto
// checks it, the password by the password policy (src/auth/secrets.ts) and its length limit.
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { passwordWeaknesses } from '../../auth/secrets.js';
import { IsEmailAddress, RequiredText } from '../../common/fields.js';

class EmailInput {
  @RequiredText(254)
  @IsEmailAddress()
  readonly email!: string;
}

/** The address as registration would store it (trimmed), or undefined when it is none. */
export async function checkedEmail(value: unknown): Promise<string | undefined> {
  if (typeof value !== 'string') return undefined;
  const input = plainToInstance(EmailInput, { email: value });
  const problems = await validate(input, { forbidUnknownValues: false });
  return problems.length === 0 ? input.email : undefined;
}

/** The registration's limit (RegistrationDto.password). */
const PASSWORD_MAX = 200;

export type PasswordProblem = 'weak' | 'tooLong' | 'mismatch';

export function passwordProblem(password: string, repeat: string): PasswordProblem | undefined {
  if (password.length > PASSWORD_MAX) return 'tooLong';
  if (passwordWeaknesses(password).length > 0) return 'weak';
  if (password !== repeat) return 'mismatch';
  return undefined;
}
