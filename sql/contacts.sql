-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- contacts.find_by_external_id
SELECT "company_id" AS "companyId", "id" AS "id", "customer_id" AS "customerId", "external_id" AS "externalId", "name" AS "name", "phone" AS "phone", "gender" AS "gender", "salutation" AS "salutation", "email" AS "email", "created_at" AS "createdAt", "updated_at" AS "updatedAt" FROM contacts WHERE company_id = $1 AND lower(external_id) = lower($2);

