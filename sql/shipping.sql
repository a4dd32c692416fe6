-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- shipping.attach_rendered_invoice_pdf
UPDATE invoices SET pdf_key = $3, pdf_size = $4, pdf_sha256 = $5, updated_at = now() WHERE company_id = $1 AND id = $2 AND pdf_key IS NULL;

-- shipping.attempts_on_channel
SELECT count(*)::int AS n FROM deliveries WHERE company_id = $1 AND shipment_id = $2 AND channel = $3;

-- shipping.attention_count
SELECT count(*)::int AS total FROM shipments s WHERE s.company_id = $1 AND s.attention IS NOT NULL AND s.status IN ('failed', 'needs_attention')
AND ($2::uuid IS NULL OR s.invoice_id = $2) AND ($3::text IS NULL OR s.document = $3)
AND NOT EXISTS (
SELECT 1 FROM shipments later
WHERE later.company_id = s.company_id AND later.invoice_id = s.invoice_id
  AND later.reminder_id IS NOT DISTINCT FROM s.reminder_id AND later.created_at > s.created_at);

-- shipping.attention_page
SELECT s.company_id AS "companyId", s.id AS "id", s.invoice_id AS "invoiceId", s.reminder_id AS "reminderId", s.document AS "document", s.shipping_mode AS "shippingMode", s.mode_source AS "modeSource", s.status AS "status", s.email_status AS "emailStatus", s.post_status AS "postStatus", s.attention AS "attention", s.message_id AS "messageId", s.letter_key AS "letterKey", s.print_day AS "printDay", s.actor_type AS "actorType", s.actor_id AS "actorId", s.reason AS "reason", s.created_at AS "createdAt", s.updated_at AS "updatedAt", s.completed_at AS "completedAt" FROM shipments s WHERE s.company_id = $1 AND s.attention IS NOT NULL AND s.status IN ('failed', 'needs_attention')
AND ($2::uuid IS NULL OR s.invoice_id = $2) AND ($3::text IS NULL OR s.document = $3)
AND NOT EXISTS (
SELECT 1 FROM shipments later
WHERE later.company_id = s.company_id AND later.invoice_id = s.invoice_id
  AND later.reminder_id IS NOT DISTINCT FROM s.reminder_id AND later.created_at > s.created_at) ORDER BY s.created_at, s.id LIMIT $4 OFFSET $5;

-- shipping.contacts_with_email
SELECT c."company_id" AS "companyId", c."id" AS "id", c."customer_id" AS "customerId", c."external_id" AS "externalId", c."name" AS "name", c."phone" AS "phone", c."gender" AS "gender", c."salutation" AS "salutation", c."email" AS "email", c."created_at" AS "createdAt", c."updated_at" AS "updatedAt" FROM contacts c
WHERE c.company_id = $1 AND c.customer_id = $2 AND coalesce(trim(c.email), '') <> '' ORDER BY c.created_at ASC, c.id ASC;

-- shipping.deliveries_of_invoice
SELECT company_id AS "companyId", id AS "id", shipment_id AS "shipmentId", invoice_id AS "invoiceId", reminder_id AS "reminderId", channel AS "channel", attempt AS "attempt", recipient AS "recipient", outcome AS "outcome", provider AS "provider", provider_id AS "providerId", message_id AS "messageId", error AS "error", created_at AS "createdAt" FROM deliveries WHERE company_id = $1 AND invoice_id = $2 ORDER BY created_at, id;

-- shipping.insert_delivery
INSERT INTO deliveries (company_id, id, shipment_id, invoice_id, reminder_id, channel, attempt, recipient, outcome, provider, provider_id, message_id, error, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14);

-- shipping.insert_shipment
INSERT INTO shipments (company_id, id, invoice_id, reminder_id, document, shipping_mode, mode_source, status, email_status, post_status, attention, message_id, letter_key, print_day, actor_type, actor_id, reason, created_at, updated_at, completed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20);

-- shipping.latest_shipment
SELECT company_id AS "companyId", id AS "id", invoice_id AS "invoiceId", reminder_id AS "reminderId", document AS "document", shipping_mode AS "shippingMode", mode_source AS "modeSource", status AS "status", email_status AS "emailStatus", post_status AS "postStatus", attention AS "attention", message_id AS "messageId", letter_key AS "letterKey", print_day AS "printDay", actor_type AS "actorType", actor_id AS "actorId", reason AS "reason", created_at AS "createdAt", updated_at AS "updatedAt", completed_at AS "completedAt" FROM shipments
WHERE company_id = $1 AND invoice_id = $2 AND reminder_id IS NOT DISTINCT FROM $3
ORDER BY created_at DESC, id DESC LIMIT 1;

-- shipping.letter_logo_of_company
SELECT content_type, image FROM letter_logos WHERE company_id = $1;

-- shipping.lock_shipment
SELECT company_id AS "companyId", id AS "id", invoice_id AS "invoiceId", reminder_id AS "reminderId", document AS "document", shipping_mode AS "shippingMode", mode_source AS "modeSource", status AS "status", email_status AS "emailStatus", post_status AS "postStatus", attention AS "attention", message_id AS "messageId", letter_key AS "letterKey", print_day AS "printDay", actor_type AS "actorType", actor_id AS "actorId", reason AS "reason", created_at AS "createdAt", updated_at AS "updatedAt", completed_at AS "completedAt" FROM shipments WHERE company_id = $1 AND id = $2 FOR UPDATE;

-- shipping.mark_reminder_shipped
UPDATE reminders SET last_sent_at = $3 WHERE company_id = $1 AND id = $2;

-- shipping.remove_letter_logo
DELETE FROM letter_logos WHERE company_id = $1;

-- shipping.save_letter_logo
INSERT INTO letter_logos (company_id, content_type, image) VALUES ($1, $2, $3)
ON CONFLICT (company_id) DO UPDATE SET content_type = EXCLUDED.content_type, image = EXCLUDED.image, updated_at = now();

-- shipping.save_settings
INSERT INTO shipping_settings (company_id, settings) VALUES ($1, $2)
ON CONFLICT (company_id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = now();

-- shipping.set_reminder_mode
UPDATE reminders SET shipping_mode = $3 WHERE company_id = $1 AND id = $2 AND shipping_mode IS NULL;

-- shipping.settings_of_company
SELECT settings FROM shipping_settings WHERE company_id = $1;

-- shipping.shipments_of_invoice
SELECT company_id AS "companyId", id AS "id", invoice_id AS "invoiceId", reminder_id AS "reminderId", document AS "document", shipping_mode AS "shippingMode", mode_source AS "modeSource", status AS "status", email_status AS "emailStatus", post_status AS "postStatus", attention AS "attention", message_id AS "messageId", letter_key AS "letterKey", print_day AS "printDay", actor_type AS "actorType", actor_id AS "actorId", reason AS "reason", created_at AS "createdAt", updated_at AS "updatedAt", completed_at AS "completedAt" FROM shipments WHERE company_id = $1 AND invoice_id = $2 ORDER BY created_at, id;

-- shipping.stalled_channels
-- across companies: the sweep of stalled deliveries is the service's own housekeeping, not a tenant's lookup
SELECT s.company_id AS "companyId", s.id AS "shipmentId", c.channel,
  (SELECT coalesce(j.output->>'message', j.output->'value'->>'message')
     FROM pgboss.job j WHERE j.name = c.queue AND j.data->>'shipmentId' = s.id::text
     ORDER BY j.created_on DESC LIMIT 1) AS "lastError"
FROM shipments s
CROSS JOIN LATERAL (VALUES ('email', s.email_status, $1::text), ('post', s.post_status, $2::text)) AS c (channel, status, queue)
WHERE s.status = 'pending' AND c.status = 'pending' AND s.updated_at < now() - make_interval(secs => $3)
  AND NOT EXISTS (
    SELECT 1 FROM pgboss.job j
    WHERE j.name = c.queue AND j.state < 'completed' AND j.data->>'shipmentId' = s.id::text
      -- An attempt past its expiry whose process died: pg-boss's maintenance (every $5 s, on a supervising
      -- replica) fails it over to a retry while retries remain, so it is live until then. It is dead when
      -- it was the last attempt, or when maintenance has stopped: no round has begun for three intervals
      -- (pgboss.version.maintained_on) since its expiry, nor since this process ($6) started supervising.
      -- Settling it earlier failed the mail of a killed replica for good instead of retrying it (npm run
      -- test:cluster, kill -9 under load), and so did the sweep of a process started after a long
      -- downtime, which came before its own first maintenance round (test/shipping/shipping-crash).
      AND NOT (j.state = 'active' AND j.started_on + j.expire_in < now() - make_interval(secs => $3)
               AND (j.retry_count >= j.retry_limit
                    OR greatest(j.started_on + j.expire_in, (SELECT v.maintained_on FROM pgboss.version v), $6::timestamptz)
                         < now() - make_interval(secs => 3 * $5))))
ORDER BY s.updated_at LIMIT $4;

-- shipping.update_shipment (variant 1 of 6)
UPDATE shipments SET letter_key = $3, updated_at = $4 WHERE company_id = $1 AND id = $2;

-- shipping.update_shipment (variant 2 of 6)
UPDATE shipments SET print_day = $3, updated_at = $4 WHERE company_id = $1 AND id = $2;

-- shipping.update_shipment (variant 3 of 6)
UPDATE shipments SET status = $3, updated_at = $4 WHERE company_id = $1 AND id = $2;

-- shipping.update_shipment (variant 4 of 6)
UPDATE shipments SET email_status = $3, updated_at = $4 WHERE company_id = $1 AND id = $2;

-- shipping.update_shipment (variant 5 of 6)
UPDATE shipments SET email_status = $3, attention = $4, updated_at = $5 WHERE company_id = $1 AND id = $2;

-- shipping.update_shipment (variant 6 of 6)
UPDATE shipments SET status = $3, attention = $4, completed_at = $5, updated_at = $6 WHERE company_id = $1 AND id = $2;

