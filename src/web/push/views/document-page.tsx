// One pushed document: where it is, its attempts and last error, its processing steps; a dead letter
// can be replayed or discarded here too.
import { toPublicId } from '../../../common/ids.js';
import type { AuditEntry, PushDocument } from '../../../push/push-document.js';
import type { Notice } from '../../exceptions/exception-pages.js';
import { Notices, SectionNav } from '../../exceptions/views/exception-parts.js';
import { Layout, type PageContext } from '../../views/layout.js';
import { AuditTable } from './audit-table.js';
import { DeadLetterActions } from './dead-letters-page.js';

const RESULT_PATHS = {
  invoice: ['inv', 'invoices'],
  payment: ['pay', null],
  credit: ['pay', null],
  customer: ['cus', 'customers'],
} as const;

export function DocumentPage({
  page,
  document,
  entries,
  notices,
}: {
  page: PageContext;
  document: PushDocument;
  entries: AuditEntry[];
  notices: Notice[];
}) {
  const { t, dateTime } = page.lang;
  const result = document.resultType && document.resultId ? RESULT_PATHS[document.resultType] : null;
  return (
    <Layout page={page} title={t('push.document.title', { externalId: document.externalId })}>
      <SectionNav page={page} />
      <Notices page={page} notices={notices} />
      <section class="card" aria-labelledby="facts-h">
        <h2 id="facts-h" safe>
          {t('push.document.facts')}
        </h2>
        <dl class="facts">
          <dt safe>{t('push.document.id')}</dt>
          <dd safe>{toPublicId('doc', document.id)}</dd>
          <dt safe>{t('push.documents.type')}</dt>
          <dd safe>{t(`push.type.${document.documentType}`)}</dd>
          <dt safe>{t('push.documents.version')}</dt>
          <dd safe>{String(document.version)}</dd>
          <dt safe>{t('push.documents.status')}</dt>
          <dd data-status={document.status} safe>
            {t(`push.status.${document.status}`)}
          </dd>
          <dt safe>{t('push.documents.attempts')}</dt>
          <dd data-attempts safe>
            {String(document.attempts)}
          </dd>
          <dt safe>{t('push.documents.lastError')}</dt>
          <dd data-last-error safe>
            {document.lastError ?? t('push.document.noError')}
          </dd>
          <dt safe>{t('push.documents.received')}</dt>
          <dd safe>{dateTime(document.receivedAt)}</dd>
          <dt safe>{t('push.document.processed')}</dt>
          <dd safe>{dateTime(document.processedAt)}</dd>
          <dt safe>{t('push.document.deadLettered')}</dt>
          <dd safe>{dateTime(document.deadLetteredAt)}</dd>
          <dt safe>{t('push.document.outcome')}</dt>
          <dd safe>{document.outcome ? t(`push.outcome.${document.outcome}`) : t('none')}</dd>
          <dt safe>{t('push.document.result')}</dt>
          <dd>
            {result && document.resultId ? (
              result[1] ? (
                <a href={`/${result[1]}/${toPublicId(result[0], document.resultId)}`} safe>
                  {toPublicId(result[0], document.resultId)}
                </a>
              ) : (
                <span safe>{toPublicId(result[0], document.resultId)}</span>
              )
            ) : (
              <span safe>{t('none')}</span>
            )}
          </dd>
          {document.discardReason ? (
            <>
              <dt safe>{t('push.document.discardReason')}</dt>
              <dd safe>{document.discardReason}</dd>
            </>
          ) : (
            ''
          )}
        </dl>
        {document.status === 'dead_lettered' ? (
          <DeadLetterActions page={page} document={document} back={`/push/documents/${toPublicId('doc', document.id)}`} />
        ) : (
          ''
        )}
      </section>
      <section class="card" aria-labelledby="steps-h">
        <h2 id="steps-h" safe>
          {t('push.document.steps')}
        </h2>
        <AuditTable page={page} entries={entries} withDocument={false} />
      </section>
    </Layout>
  );
}
