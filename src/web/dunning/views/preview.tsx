// The preview of a waiting reminder: its e-mail (recipients, subject, text) and a link to its letter.
import { Layout, type PageContext } from '../../views/layout.js';
import type { ReminderPreview } from '../reminder-preview.service.js';
import { DunningTabs } from './tabs.js';

export function PreviewPage({
  page,
  preview,
  invoiceId,
  query,
}: {
  page: PageContext;
  preview: ReminderPreview;
  invoiceId: string;
  query: string;
}) {
  const { t } = page.lang;
  return (
    <Layout page={page} title={t('dunning.preview.title', { stage: preview.stage, number: preview.invoiceNumber })}>
      <DunningTabs page={page} current="/dunning" />
      <p class="notice" safe>
        {t('dunning.preview.hint')}
      </p>
      <section class="card" aria-labelledby="letter-h">
        <h2 id="letter-h" safe>
          {t('dunning.preview.letter')}
        </h2>
        <p>
          <a href={`/dunning/preview/${invoiceId}/letter.pdf${query}`} type="application/pdf" safe>
            {`${t('dunning.preview.openLetter')} (${preview.letter.filename})`}
          </a>
        </p>
      </section>
      <section class="card" aria-labelledby="mail-h">
        <h2 id="mail-h" safe>
          {t('dunning.preview.mail')}
        </h2>
        {preview.mail ? (
          <>
            <dl class="facts">
              <dt safe>{t('dunning.preview.to')}</dt>
              <dd safe>{preview.mail.to.map((to) => `${to.name ?? ''} <${to.address}>`.trim()).join(', ')}</dd>
              <dt safe>{t('dunning.preview.subject')}</dt>
              <dd data-mail="subject" safe>
                {preview.mail.subject}
              </dd>
            </dl>
            <pre class="mail" data-mail="text" safe>
              {preview.mail.text}
            </pre>
          </>
        ) : (
          <p safe>{t('dunning.preview.noRecipient')}</p>
        )}
      </section>
      <p>
        <a href={`/dunning${query}`} safe>
          {t('dunning.preview.back')}
        </a>
      </p>
    </Layout>
  );
}
