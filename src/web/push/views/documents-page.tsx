// Pushed documents with a status filter (and type, external id), paginated as GET /v2/documents. The
// filter form is a plain GET form; with htmx it replaces only the results and keeps the URL.
import { toPublicId } from '../../../common/ids.js';
import type { PageMeta } from '../../../common/pagination.js';
import { DOCUMENT_TYPES } from '../../../push/dto/push-document.dto.js';
import { DOCUMENT_STATUSES, type PushDocument } from '../../../push/push-document.js';
import type { Notice } from '../../exceptions/exception-pages.js';
import { Notices, Pager, SectionNav, setQuery } from '../../exceptions/views/exception-parts.js';
import { Layout, type PageContext } from '../../views/layout.js';
import type { DocumentForm } from '../push-page-filters.js';

export interface DocumentsProps {
  documents: PushDocument[];
  meta: PageMeta;
  form: DocumentForm;
  notices: Notice[];
}

/** The attributes that make a GET filter form replace only #results (and push its URL) with htmx. */
export const htmxFilter = (action: string) => ({
  'hx-get': action,
  'hx-target': '#results',
  'hx-select': '#results',
  'hx-swap': 'outerHTML',
  'hx-push-url': 'true',
});

export function Select(props: {
  page: PageContext;
  id: string;
  name: string;
  label: string;
  any: string;
  values: readonly string[];
  labelOf: (value: string) => string;
  selected?: string;
}) {
  return (
    <div class="field">
      <label for={props.id} safe>
        {props.label}
      </label>
      <select id={props.id} name={props.name}>
        <option value="" safe>
          {props.any}
        </option>
        {props.values.map((value) => (
          <option value={value} selected={props.selected === value} safe>
            {props.labelOf(value)}
          </option>
        ))}
      </select>
    </div>
  );
}

export function DocumentsPage({ page, props }: { page: PageContext; props: DocumentsProps }) {
  const { t, dateTime, count } = page.lang;
  const { form } = props;
  return (
    <Layout page={page} title={t('push.documents.title')}>
      <SectionNav page={page} />
      <form method="get" action="/push/documents" class="filters" {...htmxFilter('/push/documents')}>
        <Select
          page={page}
          id="status"
          name="status"
          label={t('push.documents.status')}
          any={t('push.documents.anyStatus')}
          values={DOCUMENT_STATUSES}
          labelOf={(v) => t(`push.status.${v}`)}
          selected={form.status}
        />
        <Select
          page={page}
          id="document_type"
          name="document_type"
          label={t('push.documents.type')}
          any={t('push.documents.anyType')}
          values={DOCUMENT_TYPES}
          labelOf={(v) => t(`push.type.${v}`)}
          selected={form.document_type}
        />
        <div class="field">
          <label for="external_id" safe>
            {t('push.documents.externalId')}
          </label>
          <input id="external_id" name="external_id" type="search" maxlength="255" value={form.external_id ?? ''} />
        </div>
        <button type="submit" safe>
          {t('push.documents.filter')}
        </button>
      </form>
      <div id="results">
        <Notices page={page} notices={props.notices} />
        <section class="card" aria-labelledby="documents-h">
          <h2 id="documents-h" safe>
            {t('exceptions.pager.position', {
              page: count(props.meta.current_page),
              pages: count(Math.max(props.meta.total_pages, 1)),
              total: count(props.meta.total_count),
            })}
          </h2>
          {props.documents.length === 0 ? (
            <p safe>{t('push.documents.none')}</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col" safe>
                    {t('push.documents.externalId')}
                  </th>
                  <th scope="col" safe>
                    {t('push.documents.type')}
                  </th>
                  <th scope="col" class="num" safe>
                    {t('push.documents.version')}
                  </th>
                  <th scope="col" safe>
                    {t('push.documents.status')}
                  </th>
                  <th scope="col" class="num" safe>
                    {t('push.documents.attempts')}
                  </th>
                  <th scope="col" safe>
                    {t('push.documents.lastError')}
                  </th>
                  <th scope="col" safe>
                    {t('push.documents.received')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {props.documents.map((doc) => (
                  <tr data-document={toPublicId('doc', doc.id)}>
                    <td>
                      <a href={`/push/documents/${toPublicId('doc', doc.id)}`} safe>
                        {doc.externalId}
                      </a>
                    </td>
                    <td safe>{t(`push.type.${doc.documentType}`)}</td>
                    <td class="num" safe>
                      {String(doc.version)}
                    </td>
                    <td safe>{t(`push.status.${doc.status}`)}</td>
                    <td class="num" safe>
                      {String(doc.attempts)}
                    </td>
                    <td class="error-text" safe>
                      {doc.lastError ?? ''}
                    </td>
                    <td safe>{dateTime(doc.receivedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Pager page={page} meta={props.meta} path="/push/documents" query={setQuery({ ...form })} />
        </section>
      </div>
    </Layout>
  );
}
