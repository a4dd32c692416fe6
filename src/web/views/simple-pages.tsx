// The sign-in page and the pages that only say something: not found, refused (CSRF), too many attempts.
import { Layout, type PageContext } from './layout.js';

export interface SignInProps {
  email?: string;
  next?: string;
  error?: 'wrong' | 'expired';
  notice?: 'signedOut';
}

export function SignInPage({ page, form }: { page: PageContext; form: SignInProps }) {
  const { t } = page.lang;
  return (
    <Layout page={page} title={t('signIn.title')}>
      {form.error === 'wrong' ? (
        <p class="error" role="alert" id="sign-in-error" safe>
          {t('signIn.wrong')}
        </p>
      ) : form.error === 'expired' ? (
        <p class="notice" role="status" safe>
          {t('signIn.expired')}
        </p>
      ) : (
        ''
      )}
      {form.notice === 'signedOut' ? (
        <p class="notice" role="status" safe>
          {t('signIn.signedOut')}
        </p>
      ) : (
        ''
      )}
      <form class="sign-in" method="post" action="/sign-in">
        <input type="hidden" name="_csrf" value={page.csrf} />
        {form.next ? <input type="hidden" name="next" value={form.next} /> : ''}
        <label for="email" safe>
          {t('signIn.email')}
        </label>
        <input id="email" name="email" type="email" autocomplete="username" required value={form.email ?? ''} />
        <label for="password" safe>
          {t('signIn.password')}
        </label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit" safe>
          {t('signIn.submit')}
        </button>
      </form>
      <p>
        <a href="/password-reset" safe>
          {t('account.reset.forgot')}
        </a>
      </p>
    </Layout>
  );
}

export function MessagePage({
  page,
  kind,
  seconds,
}: {
  page: PageContext;
  kind: 'notFound' | 'forbidden' | 'ownersOnly' | 'tooMany';
  seconds?: number;
}) {
  const { t } = page.lang;
  return (
    <Layout page={page} title={t(`${kind}.title`)}>
      <p safe>{t(`${kind}.text`, { seconds })}</p>
      {kind === 'notFound' ? (
        <p>
          <a href="/dashboard" safe>
            {t('notFound.back')}
          </a>
        </p>
      ) : (
        ''
      )}
    </Layout>
  );
}
