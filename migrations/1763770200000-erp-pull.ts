import type { MigrationInterface, QueryRunner } from 'typeorm';

/** ERP connections (pull model) and the record of their pull runs. */
export class ErpPull1763770200000 implements MigrationInterface {
  name = 'ErpPull1763770200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE erp_connections (
        company_id uuid NOT NULL REFERENCES companies(id),
        id uuid NOT NULL,
        name text NOT NULL,
        base_url text NOT NULL,
        odata_version text NOT NULL CHECK (odata_version IN ('v2', 'v4')),
        auth_method text NOT NULL CHECK (auth_method IN ('oauth_client_credentials', 'basic', 'x509')),
        token_url text,
        client_id text,
        oauth_scope text,
        username text,
        client_certificate text,
        ca_certificates text,
        -- AES-256-GCM (src/common/secret-box.ts) of a JSON object of the secrets; only their names in clear
        secrets bytea,
        secret_names text[] NOT NULL DEFAULT '{}',
        sap_client text,
        schedule text,
        enabled boolean NOT NULL DEFAULT true,
        entities text[] NOT NULL,
        service_paths jsonb NOT NULL,
        mapping jsonb NOT NULL DEFAULT '{}',
        currency char(3) NOT NULL DEFAULT 'EUR',
        page_size integer NOT NULL DEFAULT 5000 CHECK (page_size BETWEEN 1 AND 5000),
        -- the last committed change dates per stream (customers, receivables, clearings)
        watermarks jsonb NOT NULL DEFAULT '{}',
        next_pull_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, id)
      )`);
    await q.query(`CREATE INDEX erp_connections_list_idx ON erp_connections (company_id, created_at, id)`);
    // The scheduler's look for due connections crosses companies by nature; the table holds a few rows
    // per company, so it is scanned rather than given an index that does not lead with company_id.
    await q.query(`
      CREATE TABLE erp_pull_runs (
        company_id uuid NOT NULL,
        id uuid NOT NULL,
        connection_id uuid NOT NULL,
        trigger text NOT NULL CHECK (trigger IN ('manual', 'schedule', 'resume')),
        mode text NOT NULL DEFAULT 'incremental' CHECK (mode IN ('incremental', 'full')),
        status text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
        resumed_from uuid,
        queued_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        heartbeat_at timestamptz,
        finished_at timestamptz,
        pages integer NOT NULL DEFAULT 0,
        requests integer NOT NULL DEFAULT 0,
        created integer NOT NULL DEFAULT 0,
        updated integer NOT NULL DEFAULT 0,
        unchanged integer NOT NULL DEFAULT 0,
        failed integer NOT NULL DEFAULT 0,
        skipped integer NOT NULL DEFAULT 0,
        -- the same counts per entity, and payments recorded / invoices settled or reopened from clearings
        counts jsonb NOT NULL DEFAULT '{}',
        watermark_from jsonb NOT NULL DEFAULT '{}',
        watermark_to jsonb,
        error text,
        errors jsonb NOT NULL DEFAULT '[]',
        PRIMARY KEY (company_id, id),
        FOREIGN KEY (company_id, connection_id) REFERENCES erp_connections (company_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX erp_pull_runs_list_idx ON erp_pull_runs (company_id, connection_id, queued_at DESC, id)`);
    // At most one queued or running pull per connection: a second one (another replica, a double click)
    // finds this taken.
    await q.query(
      `CREATE UNIQUE INDEX erp_pull_runs_active_key ON erp_pull_runs (company_id, connection_id) WHERE status IN ('queued', 'running')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE erp_pull_runs, erp_connections`);
  }
}
