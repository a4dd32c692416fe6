// Captures the statements the service runs for the customer reads by calling its own repositories
// (CredentialsRepository, CustomersRepository) on a DataSource whose logger and pool record every query. So
// the bare server runs the service's SQL as it is today, also after the entities change.
import { DataSource, type Logger } from 'typeorm';
import { CredentialsRepository } from '../../src/auth/credentials.repository.js';
import { Contact } from '../../src/contacts/contact.entity.js';
import { Customer } from '../../src/customers/customer.entity.js';
import { CustomersRepository } from '../../src/customers/customers.repository.js';
import { dataSourceOptions } from '../../src/database/data-source.js';
import { Sql } from '../../src/database/sql/sql.js';
import { assertShapes, type CustomerStatements } from './customers.statements.js';

/** `companyId` must have more than 60 customers with contacts, so that page 2 is full and counted. */
export async function captureStatements(databaseUrl: string, companyId: string, customerIds: string[]): Promise<CustomerStatements> {
  const captured: string[] = [];
  const ignore = () => undefined;
  const logger: Logger = {
    logQuery: (query) => void captured.push(query),
    logQueryError: ignore,
    logQuerySlow: ignore,
    logSchemaBuild: ignore,
    logMigration: ignore,
    log: ignore,
  };
  const db = new DataSource({ ...dataSourceOptions(databaseUrl), extra: { max: 1 }, logger });
  await db.initialize();
  // Hot reads go straight to TypeORM's pg pool (src/database/sql/pg-pool.ts), past its logger.
  const pool = (db.driver as unknown as { master: { query: (...args: unknown[]) => unknown } }).master;
  const poolQuery = pool.query.bind(pool);
  pool.query = (...args: unknown[]) => {
    captured.push(typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text);
    return poolQuery(...args);
  };
  try {
    const run = async (expected: number, work: () => Promise<unknown>): Promise<string[]> => {
      captured.length = 0;
      await work();
      if (captured.length !== expected)
        throw new Error(`Expected ${expected} statements, the repository ran ${captured.length}: ${captured.join('\n')}`);
      return [...captured];
    };
    const customers = new CustomersRepository(db, new Sql(db));
    const [id1, id2] = customerIds;
    const [token] = await run(1, () => new CredentialsRepository(new Sql(db)).findActiveToken('rt_bench'));
    const [customer] = await run(1, () => customers.findById(companyId, id1));
    // The service reads a page with its contacts (and the count when it is full) in one statement; the bare
    // server keeps the earlier three (page, count, contacts): the page is the customer's SELECT list cut by
    // company and LIMIT/OFFSET, the count is the one the service runs for an empty page past the last.
    const [, count] = await run(2, () => customers.list(companyId, { page: 1000, perPage: 30, offset: 29_970 }));
    const page = customer.replace(/ WHERE .*$/s, ' WHERE company_id = $1 ORDER BY created_at ASC, id ASC LIMIT $2 OFFSET $3');
    const [contactsOfOne] = await run(1, () => customers.contactsOf(companyId, [id1]));
    const [contactsOfTwo] = await run(1, () => customers.contactsOf(companyId, [id1, id2]));
    const fields = (entity: typeof Customer | typeof Contact): Array<[string, string]> => {
      const metadata = db.getMetadata(entity);
      return metadata.columns.map((c) => [c.propertyName, c.propertyName]);
    };
    const statements = {
      token,
      customer,
      page,
      count,
      contactsOfOne,
      contactsOfTwo,
      customerFields: fields(Customer),
      contactFields: fields(Contact),
    };
    assertShapes(statements);
    for (const [alias] of statements.customerFields)
      if (!customer.includes(`"${alias}"`)) throw new Error(`${alias} is not selected by ${customer}`);
    for (const [alias] of statements.contactFields)
      if (!contactsOfOne.includes(`"${alias}"`)) throw new Error(`${alias} is not selected by ${contactsOfOne}`);
    return statements;
  } finally {
    await db.destroy();
  }
}
