// The push audit log with the filters of GET /v2/audit_log: step, document type, external id, period.
import type { PageMeta } from '../../../common/pagination.js';
import { DOCUMENT_TYPES } from '../../../push/dto/push-document.dto.js';
import { AUDIT_STEPS, type AuditEntry } from '../../../push/push-document.js';
import type { Notice } from '../../exceptions/exception-pages.js';
import { Notices, Pager, SectionNav, setQuery } from '../../exceptions/views/exception-parts.js';
import { Layout, type PageContext } from '../../views/layout.js';
import type { AuditForm } from '../push-page-filters.js';
import { AuditTable } from './audit-table.js';
import { htmxFilter, Select } from './documents-page.js';

export function AuditLogPage({
  page,
  props,
}: {
  page: PageContext;
  props: { entries: AuditEntry[]; meta: PageMeta; form: AuditForm; notices: Notice[] };
}) {
  const { t, count } = page.lang;
  const { form } = props;
  return (
    <Layout page={page} title={t('push.audit.title')}>
      <SectionNav page={page} />
      <form method="get" action="/push/audit-log" class="filters" {...htmxFilter('/push/audit-log')}>
        <Select
          page={page}
          id="step"
          name="step"
          label={t('push.audit.step')}
          any={t('push.audit.anyStep')}
          values={AUDIT_STEPS}
          labelOf={(v) => t(`push.step.${v}`)}
          selected={form.step}
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
        <div class="field">
          <label for="from" safe>
            {t('push.audit.from')}
          </label>
          <input id="from" name="from" type="date" value={form.from ?? ''} />
        </div>
        <div class="field">
          <label for="to" safe>
            {t('push.audit.to')}
          </label>
          <input id="to" name="to" type="date" value={form.to ?? ''} />
        </div>
        <button type="submit" safe>
          {t('push.documents.filter')}
        </button>
      </form>
      <div id="results">
        <Notices page={page} notices={props.notices} />
        <section class="card" aria-labelledby="audit-h">
          <h2 id="audit-h" safe>
            {t('exceptions.pager.position', {
              page: count(props.meta.current_page),
              pages: count(Math.max(props.meta.total_pages, 1)),
              total: count(props.meta.total_count),
            })}
          </h2>
          {props.entries.length === 0 ? (
            <p safe>{t('push.audit.none')}</p>
          ) : (
            <AuditTable page={page} entries={props.entries} withDocument={true} />
          )}
          <Pager page={page} meta={props.meta} path="/push/audit-log" query={setQuery({ ...form })} />
        </section>
      </div>
    </Layout>
  );
}
