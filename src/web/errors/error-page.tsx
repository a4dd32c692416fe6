// An error page of the web app: what happened in the user's language and, for the service's own
// failures, the request id under which it was logged — never the error itself.
import { Layout, type PageContext } from '../views/layout.js';

export type ErrorKind = 'internal' | 'unavailable' | 'tooMany' | 'refused';

export function ErrorPage({ page, kind, requestId }: { page: PageContext; kind: ErrorKind; requestId?: string }) {
  const { t } = page.lang;
  return (
    <Layout page={page} title={t(`errorPage.${kind}.title`)}>
      <p safe>{t(`errorPage.${kind}.text`)}</p>
      {requestId ? (
        <p data-request-id={requestId} safe>
          {t('errorPage.requestId', { id: requestId })}
        </p>
      ) : (
        ''
      )}
      <p>
        <a href="/dashboard" safe>
          {t('errorPage.back')}
        </a>
      </p>
    </Layout>
  );
}
