import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The push integration: pushed documents (each its own processing job), their append-only audit log,
 * API key rotation, and the OAuth 2.0 authorization server (applications, codes, tokens).
 * Lookups by a secret's hash come before the company is known (as for api_keys): those unique
 * indexes are on the hash alone; every other lookup index leads with company_id.
 */
export class Push1763770100000 implements MigrationInterface {
  name = 'Push1763770100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE push_documents (
        company_id uuid NOT NULL REFERENCES companies(id),
        id uuid NOT NULL,
        document_type text NOT NULL CHECK (document_type IN ('invoice', 'credit_memo', 'payment', 'customer')),
        external_id text NOT NULL,
        -- 1, 2, … per (company, document_type, external_id): changed documents are applied in this order
        version integer NOT NULL,
        payload jsonb NOT NULL,
        payload_hash bytea NOT NULL,
        status text NOT NULL DEFAULT 'queued'
          CHECK (status IN ('queued', 'processing', 'processed', 'failed', 'dead_lettered', 'discarded')),
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        -- what processing did: applied, unchanged (already in that state) or superseded (a later version was applied)
        outcome text,
        result_type text,
        result_id uuid,
        credential_type text NOT NULL,
        credential_id uuid NOT NULL,
        request_id text,
        discard_reason text,
        received_at timestamptz NOT NULL DEFAULT now(),
        processed_at timestamptz,
        dead_lettered_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, id)
      )`);
    await q.query(
      `CREATE UNIQUE INDEX push_documents_version_key ON push_documents (company_id, document_type, lower(external_id), version)`,
    );
    await q.query(`CREATE INDEX push_documents_status_idx ON push_documents (company_id, status, received_at, id)`);
    await q.query(`CREATE INDEX push_documents_received_idx ON push_documents (company_id, received_at, id)`);

    await q.query(`
      CREATE TABLE push_audit_log (
        company_id uuid NOT NULL REFERENCES companies(id),
        id bigint GENERATED ALWAYS AS IDENTITY,
        document_id uuid NOT NULL,
        step text NOT NULL
          CHECK (step IN ('received', 'received_again', 'attempt', 'succeeded', 'failed', 'deferred', 'dead_lettered', 'replayed', 'discarded')),
        attempt integer,
        error text,
        details jsonb,
        -- who caused the step: the credential of the push (received, worker steps) or of the replay/discard
        credential_type text,
        credential_id uuid,
        request_id text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (company_id, id)
      )`);
    await q.query(`CREATE INDEX push_audit_log_document_idx ON push_audit_log (company_id, document_id, id)`);
    await q.query(`CREATE INDEX push_audit_log_time_idx ON push_audit_log (company_id, created_at, id)`);
    // Append-only: no code path updates or deletes a row, and the database refuses it too. Row
    // triggers do not fire on TRUNCATE, which stays available to the test reset and to operators.
    await q.query(`
      CREATE FUNCTION push_audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'push_audit_log is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
      END
      $$`);
    await q.query(`
      CREATE TRIGGER push_audit_log_append_only BEFORE UPDATE OR DELETE ON push_audit_log
      FOR EACH ROW EXECUTE FUNCTION push_audit_log_refuse_change()`);

    // Rotation: the old key points to its successor and stays valid until its (shortened) expires_at.
    await q.query(`ALTER TABLE api_keys ADD COLUMN replaced_by uuid, ADD COLUMN replaced_at timestamptz`);
    await q.query(`CREATE INDEX api_keys_list_idx ON api_keys (company_id, created_at, id)`);

    await q.query(`
      CREATE TABLE oauth_applications (
        company_id uuid NOT NULL REFERENCES companies(id),
        id uuid NOT NULL,
        name text NOT NULL,
        client_id text NOT NULL,
        client_secret_hash bytea NOT NULL,
        redirect_uris text[] NOT NULL,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, id)
      )`);
    await q.query(`CREATE UNIQUE INDEX oauth_applications_client_id_key ON oauth_applications (client_id)`);
    await q.query(`CREATE INDEX oauth_applications_list_idx ON oauth_applications (company_id, created_at, id)`);
    await q.query(`
      CREATE TABLE oauth_authorization_codes (
        company_id uuid NOT NULL REFERENCES companies(id),
        id uuid NOT NULL,
        application_id uuid NOT NULL,
        user_id uuid NOT NULL,
        code_hash bytea NOT NULL,
        redirect_uri text NOT NULL,
        scope text,
        code_challenge text NOT NULL,
        code_challenge_method text NOT NULL CHECK (code_challenge_method = 'S256'),
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, id),
        FOREIGN KEY (company_id, application_id) REFERENCES oauth_applications (company_id, id),
        FOREIGN KEY (company_id, user_id) REFERENCES users (company_id, id)
      )`);
    await q.query(`CREATE UNIQUE INDEX oauth_authorization_codes_hash_key ON oauth_authorization_codes (code_hash)`);
    await q.query(`
      CREATE TABLE oauth_tokens (
        company_id uuid NOT NULL REFERENCES companies(id),
        id uuid NOT NULL,
        application_id uuid NOT NULL,
        user_id uuid NOT NULL,
        -- every token of one authorization (the code and all its refreshes) shares the grant id,
        -- so a replayed code or refresh token revokes the whole family
        grant_id uuid NOT NULL,
        access_token_hash bytea NOT NULL,
        access_token_expires_at timestamptz NOT NULL,
        refresh_token_hash bytea,
        refresh_token_expires_at timestamptz,
        refresh_used_at timestamptz,
        scope text,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, id),
        FOREIGN KEY (company_id, application_id) REFERENCES oauth_applications (company_id, id),
        FOREIGN KEY (company_id, user_id) REFERENCES users (company_id, id)
      )`);
    await q.query(`CREATE UNIQUE INDEX oauth_tokens_access_hash_key ON oauth_tokens (access_token_hash)`);
    await q.query(
      `CREATE UNIQUE INDEX oauth_tokens_refresh_hash_key ON oauth_tokens (refresh_token_hash) WHERE refresh_token_hash IS NOT NULL`,
    );
    await q.query(`CREATE INDEX oauth_tokens_grant_idx ON oauth_tokens (company_id, grant_id)`);
    await q.query(`CREATE INDEX oauth_tokens_application_idx ON oauth_tokens (company_id, application_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE oauth_tokens, oauth_authorization_codes, oauth_applications, push_audit_log, push_documents`);
    await q.query(`DROP FUNCTION push_audit_log_refuse_change()`);
    await q.query(`DROP INDEX api_keys_list_idx`);
    await q.query(`ALTER TABLE api_keys DROP COLUMN replaced_by, DROP COLUMN replaced_at`);
  }
}
