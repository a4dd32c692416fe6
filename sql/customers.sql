-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- customers.contacts_of (variant 1 of 2)
SELECT "company_id" AS "companyId", "id" AS "id", "customer_id" AS "customerId", "external_id" AS "externalId", "name" AS "name", "phone" AS "phone", "gender" AS "gender", "salutation" AS "salutation", "email" AS "email", "created_at" AS "createdAt", "updated_at" AS "updatedAt" FROM contacts WHERE company_id = $1 AND customer_id = $2 ORDER BY created_at ASC, id ASC;

-- customers.contacts_of (variant 2 of 2)
SELECT "company_id" AS "companyId", "id" AS "id", "customer_id" AS "customerId", "external_id" AS "externalId", "name" AS "name", "phone" AS "phone", "gender" AS "gender", "salutation" AS "salutation", "email" AS "email", "created_at" AS "createdAt", "updated_at" AS "updatedAt" FROM contacts WHERE company_id = $1 AND customer_id = ANY ($2::uuid[]) ORDER BY created_at ASC, id ASC;

-- customers.count
SELECT count(*) AS count FROM customers WHERE company_id = $1;

-- customers.find_by_external_id
SELECT "company_id" AS "companyId", "id" AS "id", "external_id" AS "externalId", "customer_number" AS "customerNumber", "additional_number" AS "additionalNumber", "name" AS "name", "phone" AS "phone", "address_line1" AS "addressLine1", "address_line2" AS "addressLine2", "address_line3" AS "addressLine3", "address_line4" AS "addressLine4", "zip" AS "zip", "city" AS "city", "country_code" AS "countryCode", "stop_automatic_reminders" AS "stopAutomaticReminders", "shipping_mode" AS "shippingMode", "customer_group_id" AS "customerGroupId", "note" AS "note", "customer_type" AS "customerType", "created_at" AS "createdAt", "updated_at" AS "updatedAt" FROM customers WHERE company_id = $1 AND lower(external_id) = lower($2);

-- customers.find_by_external_id_with_contacts
SELECT c.*, (SELECT coalesce(json_agg(json_build_array(t."id", t."external_id", t."name", t."phone", t."gender", t."salutation", t."email", t."created_at", t."updated_at") ORDER BY t.created_at ASC, t.id ASC), '[]') FROM contacts t WHERE t.company_id = c."companyId" AND t.customer_id = c.id) AS contacts FROM (SELECT "company_id" AS "companyId", "id" AS "id", "external_id" AS "externalId", "customer_number" AS "customerNumber", "additional_number" AS "additionalNumber", "name" AS "name", "phone" AS "phone", "address_line1" AS "addressLine1", "address_line2" AS "addressLine2", "address_line3" AS "addressLine3", "address_line4" AS "addressLine4", "zip" AS "zip", "city" AS "city", "country_code" AS "countryCode", "stop_automatic_reminders" AS "stopAutomaticReminders", "shipping_mode" AS "shippingMode", "customer_group_id" AS "customerGroupId", "note" AS "note", "customer_type" AS "customerType", "created_at" AS "createdAt", "updated_at" AS "updatedAt" FROM customers WHERE company_id = $1 AND lower(external_id) = lower($2)) c;

-- customers.find_by_id
SELECT "company_id" AS "companyId", "id" AS "id", "external_id" AS "externalId", "customer_number" AS "customerNumber", "additional_number" AS "additionalNumber", "name" AS "name", "phone" AS "phone", "address_line1" AS "addressLine1", "address_line2" AS "addressLine2", "address_line3" AS "addressLine3", "address_line4" AS "addressLine4", "zip" AS "zip", "city" AS "city", "country_code" AS "countryCode", "stop_automatic_reminders" AS "stopAutomaticReminders", "shipping_mode" AS "shippingMode", "customer_group_id" AS "customerGroupId", "note" AS "note", "customer_type" AS "customerType", "created_at" AS "createdAt", "updated_at" AS "updatedAt" FROM customers WHERE company_id = $1 AND id = $2;

-- customers.find_with_contacts
SELECT c.*, (SELECT coalesce(json_agg(json_build_array(t."id", t."external_id", t."name", t."phone", t."gender", t."salutation", t."email", t."created_at", t."updated_at") ORDER BY t.created_at ASC, t.id ASC), '[]') FROM contacts t WHERE t.company_id = c."companyId" AND t.customer_id = c.id) AS contacts FROM (SELECT "company_id" AS "companyId", "id" AS "id", "external_id" AS "externalId", "customer_number" AS "customerNumber", "additional_number" AS "additionalNumber", "name" AS "name", "phone" AS "phone", "address_line1" AS "addressLine1", "address_line2" AS "addressLine2", "address_line3" AS "addressLine3", "address_line4" AS "addressLine4", "zip" AS "zip", "city" AS "city", "country_code" AS "countryCode", "stop_automatic_reminders" AS "stopAutomaticReminders", "shipping_mode" AS "shippingMode", "customer_group_id" AS "customerGroupId", "note" AS "note", "customer_type" AS "customerType", "created_at" AS "createdAt", "updated_at" AS "updatedAt" FROM customers WHERE company_id = $1 AND id = $2) c;

-- customers.page_with_contacts
WITH page AS (SELECT "company_id" AS "companyId", "id" AS "id", "external_id" AS "externalId", "customer_number" AS "customerNumber", "additional_number" AS "additionalNumber", "name" AS "name", "phone" AS "phone", "address_line1" AS "addressLine1", "address_line2" AS "addressLine2", "address_line3" AS "addressLine3", "address_line4" AS "addressLine4", "zip" AS "zip", "city" AS "city", "country_code" AS "countryCode", "stop_automatic_reminders" AS "stopAutomaticReminders", "shipping_mode" AS "shippingMode", "customer_group_id" AS "customerGroupId", "note" AS "note", "customer_type" AS "customerType", "created_at" AS "createdAt", "updated_at" AS "updatedAt" FROM customers WHERE company_id = $1 ORDER BY created_at ASC, id ASC LIMIT $2 OFFSET $3)
SELECT c.*, coalesce(k.contacts, '[]') AS contacts,
       CASE WHEN (SELECT count(*) FROM page) = $2 THEN (SELECT count(*) FROM customers WHERE company_id = $1) END AS total
  FROM page c
  LEFT JOIN (SELECT t.customer_id, json_agg(json_build_array(t."id", t."external_id", t."name", t."phone", t."gender", t."salutation", t."email", t."created_at", t."updated_at") ORDER BY t.created_at ASC, t.id ASC) AS contacts
               FROM contacts t WHERE t.company_id = $1 AND t.customer_id = ANY (ARRAY(SELECT id FROM page))
              GROUP BY t.customer_id) k ON k.customer_id = c.id
 ORDER BY c."createdAt" ASC, c.id ASC;

