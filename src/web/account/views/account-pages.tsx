// The pages of the account links: asking for a password reset, setting a password (reset and
// invitation share the form) and the pages that only say something (sent, invalid link, done).
import { Layout, type PageContext } from '../../views/layout.js';
import type { PasswordProblem } from '../account-input.js';

export interface AccountMessageProps {
  title: string;
  text: string;
  link?: { href: string; label: string };
}

export function AccountMessagePage({ page, message }: { page: PageContext; message: AccountMessageProps }) {
  return (
    <Layout page={page} title={message.title}>
      <p class="notice" role="status" safe>
        {message.text}
      </p>
      {message.link ? (
        <p>
          <a href={message.link.href} safe>
            {message.link.label}
          </a>
        </p>
      ) : (
        ''
      )}
    </Layout>
  );
}

export function RequestResetPage({ page, email, invalid }: { page: PageContext; email?: string; invalid?: boolean }) {
  const { t } = page.lang;
  return (
    <Layout page={page} title={t('account.reset.title')}>
      <p id="reset-intro" safe>
        {t('account.reset.intro')}
      </p>
      {invalid ? (
        <p class="error" role="alert" id="email-error" safe>
          {t('account.email.invalid')}
        </p>
      ) : (
        ''
      )}
      <form class="sign-in" method="post" action="/password-reset" novalidate>
        <input type="hidden" name="_csrf" value={page.csrf} />
        <label for="email" safe>
          {t('account.email.label')}
        </label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          value={email ?? ''}
          aria-invalid={invalid ? 'true' : undefined}
          aria-describedby={invalid ? 'email-error reset-intro' : 'reset-intro'}
        />
        <button type="submit" safe>
          {t('account.reset.submit')}
        </button>
      </form>
      <p>
        <a href="/sign-in" safe>
          {t('account.reset.backToSignIn')}
        </a>
      </p>
    </Layout>
  );
}

export interface SetPasswordProps {
  title: string;
  /** A sentence above the form (the invitation's). */
  intro?: string;
  email: string;
  action: string;
  submit: string;
  problem?: PasswordProblem;
}

export function SetPasswordPage({ page, form }: { page: PageContext; form: SetPasswordProps }) {
  const { t } = page.lang;
  const described = form.problem ? 'password-error password-rules' : 'password-rules';
  return (
    <Layout page={page} title={form.title}>
      {form.intro ? <p safe>{form.intro}</p> : ''}
      {form.problem ? (
        <p class="error" role="alert" id="password-error" safe>
          {t(`account.password.${form.problem}`)}
        </p>
      ) : (
        ''
      )}
      <form class="sign-in" method="post" action={form.action}>
        <input type="hidden" name="_csrf" value={page.csrf} />
        <label for="account" safe>
          {t('account.email.label')}
        </label>
        <input id="account" type="email" autocomplete="username" readonly value={form.email} />
        <label for="password" safe>
          {t('account.password.label')}
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="new-password"
          required
          minlength="12"
          maxlength="200"
          aria-invalid={form.problem && form.problem !== 'mismatch' ? 'true' : undefined}
          aria-describedby={described}
        />
        <p class="sub" id="password-rules" safe>
          {t('account.password.rules')}
        </p>
        <label for="password-repeat" safe>
          {t('account.password.repeat')}
        </label>
        <input
          id="password-repeat"
          name="password_repeat"
          type="password"
          autocomplete="new-password"
          required
          maxlength="200"
          aria-invalid={form.problem === 'mismatch' ? 'true' : undefined}
        />
        <button type="submit" safe>
          {form.submit}
        </button>
      </form>
    </Layout>
  );
}
