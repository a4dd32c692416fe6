// The statements of ShipmentsRepository: shipments, their deliveries, and the fields of reminders and
// invoices that shipping owns (a reminder's last_sent_at and shipping_mode, the PDF the service rendered
// for an invoice without one). Rows come back in the shape of Shipment and Delivery.
import { Contact } from '../../contacts/contact.entity.js';
import { entityColumns } from '../../database/sql/entity-columns.js';
import { statement, statementFamily } from '../../database/sql/statement.js';
import type { Delivery, Shipment, StalledChannel } from './shipment.js';

export const SHIPMENT_COLUMNS: Record<keyof Shipment, string> = {
  companyId: 'company_id',
  id: 'id',
  invoiceId: 'invoice_id',
  reminderId: 'reminder_id',
  document: 'document',
  shippingMode: 'shipping_mode',
  modeSource: 'mode_source',
  status: 'status',
  emailStatus: 'email_status',
  postStatus: 'post_status',
  attention: 'attention',
  messageId: 'message_id',
  letterKey: 'letter_key',
  printDay: 'print_day',
  actorType: 'actor_type',
  actorId: 'actor_id',
  reason: 'reason',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  completedAt: 'completed_at',
};

export const DELIVERY_COLUMNS: Record<keyof Delivery, string> = {
  companyId: 'company_id',
  id: 'id',
  shipmentId: 'shipment_id',
  invoiceId: 'invoice_id',
  reminderId: 'reminder_id',
  channel: 'channel',
  attempt: 'attempt',
  recipient: 'recipient',
  outcome: 'outcome',
  provider: 'provider',
  providerId: 'provider_id',
  messageId: 'message_id',
  error: 'error',
  createdAt: 'created_at',
};

/** The fields of a shipment that change after its insert (its keys and updated_at do not). */
export type ShipmentChange = Exclude<keyof Shipment, 'companyId' | 'id' | 'updatedAt'>;

const select = (columns: Record<string, string>, alias = '') =>
  Object.entries(columns)
    .map(([field, column]) => `${alias}${column} AS "${field}"`)
    .join(', ');

/** An INSERT of every field, its parameters in the order of the columns. */
const insertAll = (table: string, columns: Record<string, string>) =>
  `INSERT INTO ${table} (${Object.values(columns).join(', ')}) VALUES (${Object.keys(columns)
    .map((_, i) => `$${i + 1}`)
    .join(', ')})`;

const SHIPMENT = select(SHIPMENT_COLUMNS);

export const INSERT_SHIPMENT = statement('shipping.insert_shipment', insertAll('shipments', SHIPMENT_COLUMNS));

/** The changed fields ($3…, in SHIPMENT_COLUMNS order) and updated_at (the last parameter). */
export const UPDATE_SHIPMENT = statementFamily<readonly ShipmentChange[]>(
  'shipping.update_shipment',
  (fields) =>
    `UPDATE shipments SET ${[...fields.map((f, i) => `${SHIPMENT_COLUMNS[f]} = $${i + 3}`), `updated_at = $${fields.length + 3}`].join(', ')} WHERE company_id = $1 AND id = $2`,
  [['letterKey'], ['printDay'], ['status'], ['emailStatus'], ['emailStatus', 'attention'], ['status', 'attention', 'completedAt']],
);

export const LOCK_SHIPMENT = statement<Shipment>(
  'shipping.lock_shipment',
  `SELECT ${SHIPMENT} FROM shipments WHERE company_id = $1 AND id = $2 FOR UPDATE`,
);

export const LATEST_SHIPMENT = statement<Shipment>(
  'shipping.latest_shipment',
  `SELECT ${SHIPMENT} FROM shipments
   WHERE company_id = $1 AND invoice_id = $2 AND reminder_id IS NOT DISTINCT FROM $3
   ORDER BY created_at DESC, id DESC LIMIT 1`,
);

export const SHIPMENTS_OF_INVOICE = statement<Shipment>(
  'shipping.shipments_of_invoice',
  `SELECT ${SHIPMENT} FROM shipments WHERE company_id = $1 AND invoice_id = $2 ORDER BY created_at, id`,
);

/** The condition of a shipment needing attention ($1 company, $2 invoice or null, $3 document or null); the dashboard counts by it too. */
export const NEEDING_ATTENTION = `s.company_id = $1 AND s.attention IS NOT NULL AND s.status IN ('failed', 'needs_attention')
    AND ($2::uuid IS NULL OR s.invoice_id = $2) AND ($3::text IS NULL OR s.document = $3)
    AND NOT EXISTS (
    SELECT 1 FROM shipments later
    WHERE later.company_id = s.company_id AND later.invoice_id = s.invoice_id
      AND later.reminder_id IS NOT DISTINCT FROM s.reminder_id AND later.created_at > s.created_at)`;

export const ATTENTION_PAGE = statement<Shipment>(
  'shipping.attention_page',
  `SELECT ${select(SHIPMENT_COLUMNS, 's.')} FROM shipments s WHERE ${NEEDING_ATTENTION} ORDER BY s.created_at, s.id LIMIT $4 OFFSET $5`,
);

export const ATTENTION_COUNT = statement<{ total: number }>(
  'shipping.attention_count',
  `SELECT count(*)::int AS total FROM shipments s WHERE ${NEEDING_ATTENTION}`,
);

export const STALLED_CHANNELS = statement<StalledChannel>(
  'shipping.stalled_channels',
  `SELECT s.company_id AS "companyId", s.id AS "shipmentId", c.channel,
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
   ORDER BY s.updated_at LIMIT $4`,
  // Planned with the actual values each time, as before: pg-boss's job table swells and drains in bursts.
  { plan: 'custom', crossTenant: "the sweep of stalled deliveries is the service's own housekeeping, not a tenant's lookup" },
);

export const INSERT_DELIVERY = statement('shipping.insert_delivery', insertAll('deliveries', DELIVERY_COLUMNS));

export const NEXT_ATTEMPT = statement<{ n: number }>(
  'shipping.attempts_on_channel',
  'SELECT count(*)::int AS n FROM deliveries WHERE company_id = $1 AND shipment_id = $2 AND channel = $3',
);

export const DELIVERIES_OF_INVOICE = statement<Delivery>(
  'shipping.deliveries_of_invoice',
  `SELECT ${select(DELIVERY_COLUMNS)} FROM deliveries WHERE company_id = $1 AND invoice_id = $2 ORDER BY created_at, id`,
);

export const CONTACTS_WITH_EMAIL = statement<Contact>(
  'shipping.contacts_with_email',
  () =>
    `SELECT ${entityColumns(Contact, 'c')} FROM contacts c
     WHERE c.company_id = $1 AND c.customer_id = $2 AND coalesce(trim(c.email), '') <> '' ORDER BY c.created_at ASC, c.id ASC`,
);

export const MARK_REMINDER_SHIPPED = statement(
  'shipping.mark_reminder_shipped',
  'UPDATE reminders SET last_sent_at = $3 WHERE company_id = $1 AND id = $2',
);

export const SET_REMINDER_MODE = statement(
  'shipping.set_reminder_mode',
  'UPDATE reminders SET shipping_mode = $3 WHERE company_id = $1 AND id = $2 AND shipping_mode IS NULL',
);

export const ATTACH_RENDERED_INVOICE_PDF = statement(
  'shipping.attach_rendered_invoice_pdf',
  'UPDATE invoices SET pdf_key = $3, pdf_size = $4, pdf_sha256 = $5, updated_at = now() WHERE company_id = $1 AND id = $2 AND pdf_key IS NULL',
);
