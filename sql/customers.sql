-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- customers.contacts_of (variant 1 of 2)
SELECT "company_id" AS "companyId", "id" AS "id", "customer_id" AS "customerId", "external_id" AS "externalId", "name" AS "name", "phone" AS "phone", "gender" AS "gender", "salutation" AS "salutation", "email" AS "email", "created_at" AS "createdAt", "updated_at" AS "updatedAt" FROM contacts WHERE company_id = $1 AND customer_id = $2 ORDER BY created_at ASC, id ASC;

-- customers.contacts_of (variant 2 of 2)
SELECT "company_id" AS "companyId", "id" AS "id", "customer_id" AS "customerId", "external_id" AS "externalId", "name" AS "name", "phone" AS "phone", "gender" AS "gender", "salutation" AS "salutation", "email" AS "email", "created_at" AS "createdAt", "updated_at" AS "updatedAt" FROM contacts WHERE company_id = $1 AND customer_id = ANY ($2::uuid[]) ORDER BY created_at ASC, id ASC;

-- customers.count
SELECT count(*) AS count FROM customers WHERE company_id = $1;

-- customers.find_by_external_id
SELECT "company_id" AS "companyId", "id" AS "id", "external_id" AS "externalId", "customer_number" AS "customerNumber", "additional_number" AS "additionalNumber", "name" AS "name", "phone" AS "phone", "address_line1" AS "addressLine1", "address_line2" AS "addressLine2", "address_line3" AS "addressLine3", "address_line4" AS "addressLine4", "zip" AS "zip", "city" AS "city", "country_code" AS "countryCode", "stop_automatic_reminders" AS "stopAutomaticReminders", "shipping_mode" AS "shippingMode", "customer_group_id" AS "customerGroupId", "note" AS "note", "customer_type" AS "customerType", "created_at" AS "createdAt", "updated_at" AS "updatedAt" FROM customers WHERE company_id = $1 AND lower(external_id) = lower($2);

-- customers.find_by_id
SELECT "company_id" AS "companyId", "id" AS "id", "external_id" AS "externalId", "customer_number" AS "customerNumber", "additional_number" AS "additionalNumber", "name" AS "name", "phone" AS "phone", "address_line1" AS "addressLine1", "address_line2" AS "addressLine2", "address_line3" AS "addressLine3", "address_line4" AS "addressLine4", "zip" AS "zip", "city" AS "city", "country_code" AS "countryCode", "stop_automatic_reminders" AS "stopAutomaticReminders", "shipping_mode" AS "shippingMode", "customer_group_id" AS "customerGroupId", "note" AS "note", "customer_type" AS "customerType", "created_at" AS "createdAt", "updated_at" AS "updatedAt" FROM customers WHERE company_id = $1 AND id = $2;

-- customers.page
SELECT "company_id" AS "companyId", "id" AS "id", "external_id" AS "externalId", "customer_number" AS "customerNumber", "additional_number" AS "additionalNumber", "name" AS "name", "phone" AS "phone", "address_line1" AS "addressLine1", "address_line2" AS "addressLine2", "address_line3" AS "addressLine3", "address_line4" AS "addressLine4", "zip" AS "zip", "city" AS "city", "country_code" AS "countryCode", "stop_automatic_reminders" AS "stopAutomaticReminders", "shipping_mode" AS "shippingMode", "customer_group_id" AS "customerGroupId", "note" AS "note", "customer_type" AS "customerType", "created_at" AS "createdAt", "updated_at" AS "updatedAt" FROM customers WHERE company_id = $1 ORDER BY created_at ASC, id ASC LIMIT $2 OFFSET $3;

