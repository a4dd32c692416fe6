// What happened to the invoice: its reminders with their letters, the deliveries of invoice and
// reminders, and the event timeline (when, what, who, why — the reason in the user's language).
import { toPublicId } from '../../../common/ids.js';
import type { InvoiceEvent } from '../../../invoices/invoice-event.entity.js';
import type { InvoiceView } from '../../../invoices/invoice.serializer.js';
import type { Delivery } from '../../../shipping/shipments/shipment.js';
import type { Lang } from '../../i18n.js';
import { localReason } from '../event-reasons.js';
import type { ShippingOffers } from '../invoice-operations.js';
import { Card } from './form-parts.js';

const EVENT_KINDS = new Set([
  'created',
  'updated',
  'status_changed',
  'payment_recorded',
  'payment_deleted',
  'shipped',
  'reminder_issued',
  ...['shipping_started', 'shipping_cancelled', 'shipping_attention', 'reminder_cancelled', 'reminder_skipped'],
  ...['interest_recorded', 'interest_corrected', 'rest_waived', 'waiver_revoked', 'recovery_recorded'],
]);

function Th({ label, num }: { label: string; num?: boolean }) {
  return (
    <th scope="col" class={num ? 'num' : undefined} safe>
      {label}
    </th>
  );
}

export function RemindersCard({ lang, view, base, offers }: { lang: Lang; view: InvoiceView; base: string; offers: ShippingOffers }) {
  const { t, money, date, dateTime } = lang;
  return (
    <Card id="reminders" title={t('invoice.reminders')}>
      {view.reminders.length === 0 ? (
        <p safe>{t('invoice.noReminders')}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <Th label={t('invoice.reminderStage')} />
              <Th label={t('invoice.reminderDate')} />
              <Th label={t('invoice.fees')} num />
              <Th label={t('invoice.defaultInterest')} num />
              <Th label={t('invoice.flatFee')} num />
              <Th label={t('invoicePage.reminders.shipped')} />
              <Th label={t('invoicePage.reminders.letter')} />
              <Th label={t('invoicePage.ops.shipping.column')} />
            </tr>
          </thead>
          <tbody>
            {view.reminders.map((r) => (
              <tr data-reminder={r.reminderStage}>
                <td safe>{String(r.reminderStage)}</td>
                <td safe>{date(r.reminderDate)}</td>
                <td class="num" safe>
                  {money(r.fees)}
                </td>
                <td class="num" safe>
                  {money(r.defaultInterest)}
                </td>
                <td class="num" safe>
                  {money(r.flatFee)}
                </td>
                <td safe>{r.lastSentAt ? dateTime(r.lastSentAt) : t('invoicePage.reminders.notShipped')}</td>
                <td>
                  <a
                    href={`${base}/reminders/${toPublicId('rem', r.id)}/letter?inline=true`}
                    target="_blank"
                    rel="noopener"
                    aria-label={t('invoicePage.reminders.openLabel', { stage: r.reminderStage })}
                    safe
                  >
                    {t('invoicePage.reminders.open')}
                  </a>
                </td>
                <td>
                  <ReminderShipping lang={lang} offers={offers} reminderId={r.id} stage={r.reminderStage} base={base} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

/** Confirm a reminder posted by hand, or ship it again: the step that waits, if any. */
function ReminderShipping(props: { lang: Lang; offers: ShippingOffers; reminderId: string; stage: number; base: string }) {
  const { t } = props.lang;
  const path = `${props.base}/reminders/${toPublicId('rem', props.reminderId)}`;
  const step = props.offers.confirmReminder.has(props.reminderId)
    ? { href: `${path}/confirm_shipping`, key: 'confirmReminder', op: 'confirm_shipping' }
    : props.offers.shipAgain.has(props.reminderId)
      ? { href: `${path}/ship`, key: 'shipAgain', op: 'ship' }
      : undefined;
  if (!step) return '';
  return (
    <a
      href={step.href}
      data-operation={step.op}
      aria-label={`${t(`invoicePage.ops.shipping.${step.key}`)}: ${t('invoicePage.reason.reminderStage', { stage: props.stage })}`}
      safe
    >
      {t(`invoicePage.ops.shipping.${step.key}`)}
    </a>
  );
}

export function DeliveriesCard({ lang, deliveries }: { lang: Lang; deliveries: Delivery[] }) {
  const { t, dateTime } = lang;
  return (
    <Card id="deliveries" title={t('invoicePage.deliveries.title')}>
      {deliveries.length === 0 ? (
        <p safe>{t('invoicePage.deliveries.none')}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <Th label={t('invoicePage.deliveries.when')} />
              <Th label={t('invoicePage.deliveries.document')} />
              <Th label={t('invoicePage.deliveries.channel')} />
              <Th label={t('invoicePage.deliveries.recipient')} />
              <Th label={t('invoicePage.deliveries.outcome')} />
            </tr>
          </thead>
          <tbody>
            {deliveries.map((d) => (
              <tr data-delivery={d.outcome}>
                <td safe>{dateTime(d.createdAt)}</td>
                <td safe>{d.reminderId ? t('invoicePage.deliveries.reminder') : t('invoicePage.deliveries.invoice')}</td>
                <td safe>{t(`invoicePage.channel.${d.channel}`)}</td>
                <td safe>{d.recipient ?? t('none')}</td>
                <td>
                  <span safe>{t(`invoicePage.outcome.${d.outcome}`)}</span>
                  {d.error ? (
                    <>
                      <br />
                      <span class="sub" lang="en" safe>
                        {d.error}
                      </span>
                    </>
                  ) : (
                    ''
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

export function TimelineCard({ lang, events, users }: { lang: Lang; events: InvoiceEvent[]; users: Map<string, string> }) {
  const { t, dateTime, date } = lang;
  const what = (e: InvoiceEvent) =>
    [
      EVENT_KINDS.has(e.kind)
        ? t(`event.${e.kind}`)
        : t(`invoicePage.event.${e.kind}`, { defaultValue: '' }) || t('event.other', { kind: e.kind }),
      e.fromStatus && e.toStatus ? t('event.transition', { from: t(`status.${e.fromStatus}`), to: t(`status.${e.toStatus}`) }) : '',
    ]
      .filter(Boolean)
      .join(': ');
  const who = (e: InvoiceEvent) => {
    const email = e.actorType === 'user' && e.actorId ? users.get(e.actorId) : undefined;
    return email ? `${t(`actor.${e.actorType}`)} ${email}` : t(`actor.${e.actorType}`);
  };
  return (
    <Card id="events" title={t('invoice.events')}>
      <table>
        <thead>
          <tr>
            <Th label={t('invoice.eventWhen')} />
            <Th label={t('invoice.eventWhat')} />
            <Th label={t('invoice.eventWho')} />
            <Th label={t('invoice.eventWhy')} />
          </tr>
        </thead>
        <tbody>
          {events.map((e) => (
            <tr data-event={e.kind}>
              <td safe>{dateTime(e.createdAt)}</td>
              <td safe>{what(e)}</td>
              <td safe>{who(e)}</td>
              <td safe>{localReason(e.reason, t, date)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
