// Operator command line (`npm run cli -- <command> …`): creates companies and credentials where
// self-registration is off (production). Secrets are printed once and never stored in clear.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { CliModule } from './cli.module.js';
import { DataSource } from 'typeorm';
import { baseRateInput, type Flags, inviteInput, registrationInput, tokenInput, UsageError } from './input.js';
import { InvitationRefused, InvitationsService } from '../web/account/invitations.service.js';
import { setBaseRate } from '../dunning/base-rates.repository.js';
import { Sql } from '../database/sql/sql.js';
import { serializeRegistration } from '../companies/registration.serializer.js';
import { CompaniesService } from '../companies/companies.service.js';
import { ConfigError, loadConfig } from '../config/app.config.js';
import { AppError } from '../common/errors.js';
import { connectDatabase } from '../database/connect.js';
import { runMigrations } from '../database/migrate.js';

const USAGE = `Usage (from a checkout; in the container image: node dist/src/cli/main.js <command> …):
  npm run cli -- --help   (or -h, or no command): this text
  npm run cli -- company:create --name "<company name>" --email <first user's e-mail> [--password <password>]
  npm run cli -- token:create --company <cmp-…> [--name <token name>]
  npm run cli -- base-rate:set --from <YYYY-01-01|YYYY-07-01> --rate <percent, e.g. 1.27>
  npm run cli -- user:invite --company <cmp-…> --email <invitee's e-mail> [--role owner|member] [--locale de|en]
base-rate:set adds (or corrects) the Bundesbank base rate for BGB § 288 default interest; it changes
every 1 January and 1 July.
user:invite e-mails a link (valid 7 days) with which the invitee sets a password and becomes a user of
the company in the role given (member by default; an owner manages users, keys, connections and
settings), and prints the link (to pass on by hand when the e-mail could not be sent).
Without --password one is generated and printed once. DATABASE_URL (or the embedded database under
DATA_DIR) is the service's own configuration.`;

async function run(argv: string[]): Promise<void> {
  // No command, or a request for help anywhere: the usage on stdout, exit code 0.
  if (argv.length === 0 || argv[0] === 'help' || argv.some((arg) => arg === '--help' || arg === '-h')) {
    console.log(USAGE);
    return;
  }
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      company: { type: 'string' },
      from: { type: 'string' },
      rate: { type: 'string' },
      locale: { type: 'string' },
      role: { type: 'string' },
    },
    strict: true,
  });
  if (!['company:create', 'token:create', 'base-rate:set', 'user:invite'].includes(command ?? ''))
    throw new UsageError(`unknown command "${command ?? ''}"`);
  const flags: Flags = values;
  const registration = command === 'company:create' ? await registrationInput(flags) : undefined;
  const token = command === 'token:create' ? tokenInput(flags) : undefined;
  const baseRate = command === 'base-rate:set' ? baseRateInput(flags) : undefined;
  const invite = command === 'user:invite' ? await inviteInput(flags) : undefined;

  const config = loadConfig();
  const database = await connectDatabase(config, () => undefined);
  await runMigrations(database.url);
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config, database.url), { logger: ['error'] });
  try {
    const companies = app.get(CompaniesService);
    if (registration) {
      const created = await companies.createCompany(registration.name, registration.email, registration.password);
      const output = { ...serializeRegistration(created), ...(registration.generated ? { password: registration.password } : {}) };
      console.log(JSON.stringify(output, null, 2));
      console.error('Store these secrets now: they are shown only once.');
    } else if (baseRate) {
      const latest = await setBaseRate(new Sql(app.get(DataSource)), baseRate.validFrom, baseRate.rate);
      console.log(JSON.stringify({ base_rates: latest.map((r) => ({ valid_from: r.validFrom, rate: r.rate })) }, null, 2));
    } else if (invite) {
      const invitations = app.get(InvitationsService);
      const sent = await invitations.invite(await invitations.operatorOf(invite.company), invite.email, invite.role, invite.locale, true);
      const output = {
        company: invite.company,
        email: invite.email,
        role: invite.role,
        invitation_url: sent.link,
        expires_at: sent.expiresAt.toISOString(),
        mailed: sent.mailed,
      };
      console.log(JSON.stringify(output, null, 2));
      if (!sent.mailed) console.error('The invitation e-mail could not be sent: pass the link on to the invitee yourself.');
    } else if (token) {
      const secret = await companies.issueToken(token.company, token.name);
      console.log(JSON.stringify({ company: token.company, api_token: secret }, null, 2));
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
    if (error instanceof InvitationRefused) {
      const why = {
        companyNotFound: 'the company was not found',
        alreadyMember: 'the company has a user with this e-mail address already',
      };
      console.error(`Error: ${why[error.reason as keyof typeof why] ?? error.message}\n\n${USAGE}`);
    } else if (error instanceof UsageError || error instanceof ConfigError || error instanceof AppError) {
      console.error(`Error: ${error.message}\n\n${USAGE}`);
    } else if (error instanceof TypeError && 'code' in error) {
      console.error(`Error: ${error.message}\n\n${USAGE}`);
    } else {
      console.error(error);
    }
    process.exit(1);
  },
);
