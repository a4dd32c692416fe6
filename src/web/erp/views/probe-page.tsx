// "Test connection": every check of the connection probe with its verdict and the probe's own finding
// and advice (what failed and where to look).
import type { ProbeResult } from '../../../erp-pull/connections/connection-probe.js';
import { Layout, type PageContext } from '../../views/layout.js';
import { INTEGRATIONS_LINKS, SectionNav } from '../../views/section-nav.js';

const KNOWN = new Set(['dns', 'address', 'secrets', 'token', 'customers', 'receivables']);

export function ProbePage({ page, id, name, result }: { page: PageContext; id: string; name: string; result: ProbeResult }) {
  const { t } = page.lang;
  return (
    <Layout page={page} title={t('erp.test.title', { name })}>
      <SectionNav page={page} label={t('nav.integrationsLabel')} links={INTEGRATIONS_LINKS} />
      {result.ok ? (
        <p class="notice" role="status" data-probe="ok" safe>
          {t('erp.test.passed')}
        </p>
      ) : (
        <p class="error" role="alert" data-probe="failed" safe>
          {t('erp.test.failed')}
        </p>
      )}
      <section class="card" aria-labelledby="checks-h">
        <h2 id="checks-h" safe>
          {t('erp.test.check')}
        </h2>
        <table data-table="checks">
          <thead>
            <tr>
              <th scope="col" safe>
                {t('erp.test.check')}
              </th>
              <th scope="col" safe>
                {t('erp.test.verdict')}
              </th>
              <th scope="col" safe>
                {t('erp.test.detail')}
              </th>
            </tr>
          </thead>
          <tbody>
            {result.checks.map((check) => (
              <tr data-check={check.check} data-ok={String(check.ok)}>
                <th scope="row" safe>
                  {KNOWN.has(check.check) ? t(`erp.test.checks.${check.check}`) : check.check}
                </th>
                <td>
                  <span class={`status ${check.ok ? 'run-succeeded' : 'run-failed'}`} safe>
                    {t(check.ok ? 'erp.test.ok' : 'erp.test.notOk')}
                  </span>
                </td>
                <td safe>{check.detail}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p>
          <a href={`/integrations/erp/${id}`} safe>
            {t('erp.test.back')}
          </a>
        </p>
      </section>
    </Layout>
  );
}
