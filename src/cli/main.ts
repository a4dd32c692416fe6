// Operator command line (`npm run cli -- <command> …`): creates companies and credentials where
// self-registration is off (production). Secrets are printed once and never stored in clear.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { CliModule } from './cli.module.js';
import { passwordWeaknesses } from '../auth/secrets.js';
import { serializeRegistration } from '../auth/registration.serializer.js';
import { CompaniesService } from '../companies/companies.service.js';
import { ConfigError, loadConfig } from '../config/app.config.js';
import { AppError } from '../common/errors.js';
import { connectDatabase } from '../database/connect.js';
import { runMigrations } from '../database/migrate.js';

const USAGE = `Usage:
  npm run cli -- company:create --name "<company name>" --email <first user's e-mail> [--password <password>]
  npm run cli -- token:create --company <cmp-…> [--name <token name>]`;

class UsageError extends Error {}

function required(values: Record<string, string | undefined>, name: string): string {
  const value = values[name]?.trim();
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

/** A password that meets the policy, for an operator who did not choose one. */
function generatedPassword(): string {
  return `${randomBytes(12).toString('base64url')}aA1!`;
}

async function run(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: { name: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' }, company: { type: 'string' } },
    strict: true,
  });
  if (command !== 'company:create' && command !== 'token:create') throw new UsageError(`unknown command "${command ?? ''}"`);

  const config = loadConfig();
  const database = await connectDatabase(config, () => undefined);
  await runMigrations(database.url);
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config, database.url), { logger: ['error'] });
  try {
    const companies = app.get(CompaniesService);
    if (command === 'company:create') {
      const password = values.password ?? generatedPassword();
      const weaknesses = passwordWeaknesses(password);
      if (weaknesses.length) throw new UsageError(`the password needs ${weaknesses.join(', ')}`);
      const created = await companies.createCompany(required(values, 'name'), required(values, 'email'), password);
      const output = { ...serializeRegistration(created), ...(values.password ? {} : { password }) };
      console.log(JSON.stringify(output, null, 2));
      console.error('Store these secrets now: they are shown only once.');
    } else {
      const token = await companies.issueToken(required(values, 'company'), values.name ?? 'cli');
      console.log(JSON.stringify({ company: values.company, api_token: token }, null, 2));
      console.error('Store this token now: it is shown only once.');
    }
  } finally {
    await app.close();
    await database.stop();
  }
}

run(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof ConfigError || error instanceof AppError) {
      console.error(`Error: ${error.message}\n\n${USAGE}`);
    } else if (error instanceof TypeError && 'code' in error) {
      console.error(`Error: ${error.message}\n\n${USAGE}`);
    } else {
      console.error(error);
    }
    process.exit(1);
  },
);
