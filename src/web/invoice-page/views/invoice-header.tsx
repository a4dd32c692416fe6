// The top of the invoice page: status and dunning block, the amounts as the API states them, customer and
// contact, the documents, and the actions the invoice's status allows.
import { toPublicId } from '../../../common/ids.js';
import type { InvoiceView } from '../../../invoices/invoice.serializer.js';
import type { Lang } from '../../i18n.js';
import type { PageAction } from '../invoice-actions.js';
import type { ShippingOffers } from '../invoice-operations.js';
import type { InvoiceWire } from '../invoice-page.service.js';
import { Card } from './form-parts.js';

export function StatusCard({ lang, view }: { lang: Lang; view: InvoiceView }) {
  const { t, date } = lang;
  const { invoice } = view;
  return (
    <Card id="status" title={t('invoice.status')}>
      <p>
        <span class="status" data-status={invoice.status} safe>
          {t(`status.${invoice.status}`)}
        </span>
      </p>
      {invoice.dunningBlockReason ? (
        <p class="notice" data-block safe>
          {t('invoice.dunningBlockUntil', { date: date(invoice.dunningBlockUntil), reason: invoice.dunningBlockReason })}
        </p>
      ) : (
        ''
      )}
      <dl class="facts">
        <dt safe>{t('invoice.invoiceDate')}</dt>
        <dd safe>{date(invoice.invoiceDate)}</dd>
        <dt safe>{t('invoice.dueDate')}</dt>
        <dd safe>{date(invoice.dueDate)}</dd>
        <dt safe>{t('invoice.externalId')}</dt>
        <dd safe>{invoice.externalId ?? t('none')}</dd>
      </dl>
    </Card>
  );
}

export function AmountsCard({ lang, view, wire }: { lang: Lang; view: InvoiceView; wire: InvoiceWire }) {
  const { t, money } = lang;
  const amounts: Array<[string, string, string]> = [
    ['total', t('invoice.total'), wire.total],
    ['originalTotal', t('invoice.originalTotal'), wire.original_total],
    ['fees', t('invoice.fees'), wire.reminder_fees],
    ['defaultInterest', t('invoice.defaultInterest'), wire.default_interest],
    ['accruedInterest', t('invoicePage.amounts.accruedInterest'), wire.accrued_interest],
    ['flatFee', t('invoice.flatFee'), wire.flat_fee],
    ['waived', t('invoice.waived'), wire.waived_amount],
    ['paid', t('invoice.paid'), view.invoice.paidAmount],
    ['open', t('invoice.open'), wire.open_amount],
  ];
  return (
    <Card id="amounts" title={t('invoice.amounts')}>
      <dl class="facts">
        {amounts.map(([key, label, amount]) => (
          <>
            <dt safe>{label}</dt>
            <dd class="num" data-amount={key} safe>
              {money(amount)}
            </dd>
          </>
        ))}
      </dl>
    </Card>
  );
}

export function CustomerCard({ lang, view }: { lang: Lang; view: InvoiceView }) {
  const { t } = lang;
  const { customer, contact } = view;
  return (
    <Card id="customer" title={t('invoice.customer')}>
      <p>
        <a href={`/customers/${toPublicId('cus', customer.id)}`} safe>
          {customer.name}
        </a>
      </p>
      <h3 safe>{t('invoice.contact')}</h3>
      {contact ? (
        <p>
          <span safe>{contact.name}</span>
          {contact.email ? (
            <>
              <br />
              <span safe>{contact.email}</span>
            </>
          ) : (
            ''
          )}
        </p>
      ) : (
        <p safe>{t('invoice.noContact')}</p>
      )}
    </Card>
  );
}

function DocumentLinks({ lang, href, label }: { lang: Lang; href: string; label: string }) {
  const { t } = lang;
  return (
    <li>
      <span safe>{label}</span>:{' '}
      <a href={`${href}?inline=true`} target="_blank" rel="noopener" aria-label={`${label}: ${t('invoicePage.documents.view')}`} safe>
        {t('invoicePage.documents.view')}
      </a>{' '}
      ·{' '}
      <a href={href} download="" aria-label={`${label}: ${t('invoicePage.documents.download')}`} safe>
        {t('invoicePage.documents.download')}
      </a>
    </li>
  );
}

export function DocumentsCard({ lang, view, base, offers }: { lang: Lang; view: InvoiceView; base: string; offers: ShippingOffers }) {
  const { t } = lang;
  const { invoice } = view;
  return (
    <Card id="documents" title={t('invoicePage.documents.title')}>
      <ul class="plain">
        {invoice.pdfKey ? (
          <DocumentLinks lang={lang} href={`${base}/pdf`} label={t('invoicePage.documents.pdf')} />
        ) : (
          <li safe>{t('invoicePage.documents.noPdf')}</li>
        )}
        {invoice.attachmentKey ? (
          <DocumentLinks lang={lang} href={`${base}/attachment`} label={t('invoicePage.documents.attachment')} />
        ) : (
          <li safe>{t('invoicePage.documents.noAttachment')}</li>
        )}
        {offers.statementOfClaim ? (
          <DocumentLinks lang={lang} href={`${base}/statement_of_claim`} label={t('invoicePage.ops.shipping.statementOfClaim')} />
        ) : (
          ''
        )}
      </ul>
      {invoice.pdfActiveContent || invoice.attachmentActiveContent ? <p safe>{t('invoicePage.documents.activeContent')}</p> : ''}
    </Card>
  );
}

/** Each allowed action is a link to its confirmation page (which works without JavaScript); editing too. */
export function ActionsCard(props: { lang: Lang; actions: PageAction[]; base: string; offers: ShippingOffers; canEdit: boolean }) {
  const { lang, actions, base, offers } = props;
  const { t } = lang;
  return (
    <Card id="actions" title={t('invoicePage.actions.title')}>
      {actions.length === 0 && !props.canEdit && !offers.confirmInvoice ? (
        <p safe>{t('invoicePage.actions.none')}</p>
      ) : (
        <ul class="actions">
          {offers.confirmInvoice ? (
            <li>
              <a class="button" href={`${base}/confirm_shipping`} data-operation="confirm_shipping" safe>
                {t('invoicePage.ops.shipping.confirmInvoice')}
              </a>
            </li>
          ) : (
            ''
          )}
          {props.canEdit ? (
            <li>
              <a class="button" href={`${base}/edit`} data-operation="edit" safe>
                {t('invoicePage.ops.edit.link')}
              </a>
            </li>
          ) : (
            ''
          )}
          {actions.map((action) => (
            <li>
              <a class="button" href={`${base}/confirm/${action}`} data-action={action} safe>
                {t(`invoicePage.actions.${action}`)}
              </a>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
