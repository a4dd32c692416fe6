-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- companies.insert_user
INSERT INTO users (company_id, id, email, password_hash, role) VALUES ($1, $2, $3, $4, $5);

-- companies.update_profile
UPDATE companies SET name = $2, time_zone = $3, contact_email = $4, updated_at = now() WHERE id = $1;

-- companies.update_shipping_defaults
UPDATE companies SET shipping_mode = $2, autosend = $3, autoskip_shipping = $4, updated_at = now() WHERE id = $1;

