import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Companies (tenants), their credentials, customers and contacts. */
export class Foundation1763769600000 implements MigrationInterface {
  name = 'Foundation1763769600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE companies (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        time_zone text NOT NULL DEFAULT 'Europe/Berlin',
        shipping_mode text NOT NULL DEFAULT 'email',
        autosend boolean NOT NULL DEFAULT false,
        autoskip_shipping boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE users (
        company_id uuid NOT NULL REFERENCES companies(id),
        id uuid NOT NULL,
        email text NOT NULL,
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, id)
      )`);
    // A login names no company, so e-mail addresses are unique across the service.
    await q.query(`CREATE UNIQUE INDEX users_email_key ON users (lower(email))`);
    await q.query(`
      CREATE TABLE api_tokens (
        company_id uuid NOT NULL REFERENCES companies(id),
        id uuid NOT NULL,
        name text NOT NULL DEFAULT 'default',
        token_hash bytea NOT NULL,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, id)
      )`);
    // Authentication looks a credential up by its hash before the company is known.
    await q.query(`CREATE UNIQUE INDEX api_tokens_hash_key ON api_tokens (token_hash)`);
    await q.query(`
      CREATE TABLE api_keys (
        company_id uuid NOT NULL REFERENCES companies(id),
        id uuid NOT NULL,
        name text NOT NULL DEFAULT 'default',
        key_hash bytea NOT NULL,
        key_prefix text NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, id)
      )`);
    await q.query(`CREATE UNIQUE INDEX api_keys_hash_key ON api_keys (key_hash)`);
    await q.query(`
      CREATE TABLE customers (
        company_id uuid NOT NULL REFERENCES companies(id),
        id uuid NOT NULL,
        external_id text,
        customer_number text,
        additional_number text,
        name text NOT NULL,
        phone text,
        address_line1 text NOT NULL,
        address_line2 text,
        address_line3 text NOT NULL,
        address_line4 text,
        zip text NOT NULL,
        city text NOT NULL,
        country_code char(2) NOT NULL,
        stop_automatic_reminders boolean NOT NULL DEFAULT false,
        shipping_mode text,
        customer_group_id text,
        note text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, id)
      )`);
    await q.query(
      `CREATE UNIQUE INDEX customers_external_id_key ON customers (company_id, lower(external_id)) WHERE external_id IS NOT NULL`,
    );
    await q.query(`CREATE INDEX customers_list_idx ON customers (company_id, created_at, id)`);
    await q.query(`
      CREATE TABLE contacts (
        company_id uuid NOT NULL,
        id uuid NOT NULL,
        customer_id uuid NOT NULL,
        external_id text,
        name text NOT NULL,
        phone text,
        gender smallint NOT NULL CHECK (gender IN (0, 1, 2)),
        salutation smallint NOT NULL CHECK (salutation IN (0, 1)),
        email text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, id),
        FOREIGN KEY (company_id, customer_id) REFERENCES customers (company_id, id)
      )`);
    await q.query(
      `CREATE UNIQUE INDEX contacts_external_id_key ON contacts (company_id, lower(external_id)) WHERE external_id IS NOT NULL`,
    );
    await q.query(`CREATE INDEX contacts_customer_idx ON contacts (company_id, customer_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE contacts, customers, api_keys, api_tokens, users, companies`);
  }
}
