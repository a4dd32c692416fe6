// The dead-letter queue: replay one or the selected documents, or discard one with a reason. The
// checkboxes belong to the one replay form (form=…), so that every row can hold its own forms.
import { toPublicId } from '../../../common/ids.js';
import type { PageMeta } from '../../../common/pagination.js';
import type { PushDocument } from '../../../push/push-document.js';
import type { Notice } from '../../exceptions/exception-pages.js';
import { Notices, Pager, SectionNav } from '../../exceptions/views/exception-parts.js';
import { Layout, type PageContext } from '../../views/layout.js';

/** A discard form sent back because its reason was missing. */
export interface DiscardState {
  id: string;
  reason: string;
}

export function DeadLetterActions({
  page,
  document,
  back,
  discard,
}: {
  page: PageContext;
  document: PushDocument;
  back: string;
  discard?: DiscardState;
}) {
  const { t } = page.lang;
  const id = toPublicId('doc', document.id);
  const invalid = discard?.id === id;
  return (
    <div class="actions">
      <form method="post" action="/push/dead-letters/replay" class="inline">
        <input type="hidden" name="_csrf" value={page.csrf} />
        <input type="hidden" name="document" value={id} />
        <input type="hidden" name="back" value={back} />
        <button type="submit" aria-label={`${t('push.deadLetters.replay')}: ${document.externalId}`} safe>
          {t('push.deadLetters.replay')}
        </button>
      </form>
      <form method="post" action={`/push/dead-letters/${id}/discard`} class="fix">
        <input type="hidden" name="_csrf" value={page.csrf} />
        <input type="hidden" name="back" value={back} />
        <div class="field">
          <label for={`reason-${id}`} safe>
            {t('push.deadLetters.reason', { externalId: document.externalId })}
          </label>
          <input
            id={`reason-${id}`}
            name="reason"
            maxlength="2000"
            required
            value={invalid ? discard.reason : ''}
            aria-invalid={invalid ? 'true' : undefined}
            aria-describedby={invalid ? `reason-${id}-error` : undefined}
          />
          {invalid ? (
            <p class="field-error" id={`reason-${id}-error`} safe>
              {t('push.deadLetters.reasonRequired')}
            </p>
          ) : (
            ''
          )}
        </div>
        <button type="submit" class="danger" safe>
          {t('push.deadLetters.discard')}
        </button>
      </form>
    </div>
  );
}

export function DeadLettersPage({
  page,
  props,
}: {
  page: PageContext;
  props: { documents: PushDocument[]; meta: PageMeta; notices: Notice[]; discard?: DiscardState };
}) {
  const { t, dateTime } = page.lang;
  return (
    <Layout page={page} title={t('push.deadLetters.title')}>
      <SectionNav page={page} />
      <Notices page={page} notices={props.notices} />
      <p safe>{t('push.deadLetters.intro')}</p>
      {props.documents.length === 0 ? (
        <p class="notice" role="status" safe>
          {t('push.deadLetters.none')}
        </p>
      ) : (
        <>
          <form id="replay-form" method="post" action="/push/dead-letters/replay">
            <input type="hidden" name="_csrf" value={page.csrf} />
            <input type="hidden" name="back" value="/push/dead-letters" />
            <button type="submit" safe>
              {t('push.deadLetters.replaySelected')}
            </button>
          </form>
          <section class="card" aria-labelledby="dead-h">
            <h2 id="dead-h" safe>
              {t('push.deadLetters.title')}
            </h2>
            <table>
              <thead>
                <tr>
                  <th scope="col" safe>
                    {t('push.deadLetters.select')}
                  </th>
                  <th scope="col" safe>
                    {t('push.documents.externalId')}
                  </th>
                  <th scope="col" safe>
                    {t('push.documents.type')}
                  </th>
                  <th scope="col" class="num" safe>
                    {t('push.documents.attempts')}
                  </th>
                  <th scope="col" safe>
                    {t('push.documents.lastError')}
                  </th>
                  <th scope="col" safe>
                    {t('push.document.deadLettered')}
                  </th>
                  <th scope="col" safe>
                    {t('exceptions.shipments.actions')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {props.documents.map((doc) => (
                  <tr data-document={toPublicId('doc', doc.id)}>
                    <td>
                      <input
                        type="checkbox"
                        form="replay-form"
                        name="document"
                        value={toPublicId('doc', doc.id)}
                        aria-label={t('push.deadLetters.selectOne', { externalId: doc.externalId })}
                      />
                    </td>
                    <td>
                      <a href={`/push/documents/${toPublicId('doc', doc.id)}`} safe>
                        {doc.externalId}
                      </a>
                    </td>
                    <td safe>{t(`push.type.${doc.documentType}`)}</td>
                    <td class="num" safe>
                      {String(doc.attempts)}
                    </td>
                    <td safe>{doc.lastError ?? ''}</td>
                    <td safe>{dateTime(doc.deadLetteredAt)}</td>
                    <td>
                      <DeadLetterActions page={page} document={doc} back="/push/dead-letters" discard={props.discard} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager page={page} meta={props.meta} path="/push/dead-letters" query={{}} />
          </section>
        </>
      )}
    </Layout>
  );
}
