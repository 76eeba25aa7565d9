import { useEffect, useState } from 'preact/hooks';
import { NewPassword } from '@garrison/core';
import { client, session } from '../session.js';
import { Problem, useAction } from '../components/problem.js';
import { lazy } from '../components/lazy.js';
import { Sessions } from './sessions.js';
import { invalidate } from '../cache/store.js';

// Loaded when the account page is first shown: most visits never come here (web README, Bundle size).
const ApiKeys = lazy(() => import('./api-keys.js').then((m) => m.ApiKeys));
const TwoFactor = lazy(() => import('./two-factor.js').then((m) => m.TwoFactor));

/** How often the sessions' and keys' "Last used" is read again while shown: the service notes a use at most once a minute. */
const LAST_USED_EVERY_MS = 60_000;

/**
 * The sessions and keys read again every minute while the page is shown, and when it is shown again
 * (another tab, a sleeping laptop): their "Last used" moves with every use, which no live event carries.
 */
function useLastUsedKeptFresh() {
  useEffect(() => {
    const again = () => document.visibilityState === 'visible' && invalidate(['sessions:', 'api-keys:']);
    const ticker = setInterval(again, LAST_USED_EVERY_MS);
    document.addEventListener('visibilitychange', again);
    return () => {
      clearInterval(ticker);
      document.removeEventListener('visibilitychange', again);
    };
  }, []);
}

/** One's own account: the role, a change of password (which needs the current one), one's sessions, and API keys. */
export function Account() {
  useLastUsedKeptFresh();
  const action = useAction();
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => void (document.title = 'Account · Garrison'), []);
  const submit = async (event: Event) => {
    event.preventDefault();
    const formElement = event.currentTarget as HTMLFormElement;
    const form = new FormData(formElement);
    setDone(false);
    setBusy(true);
    await action.run(async () => {
      if (form.get('new_password') !== form.get('repeat')) throw new Error('The new password and its repetition differ.');
      await client.auth.changePassword(String(form.get('current_password')), String(form.get('new_password')));
      formElement.reset();
      setDone(true);
    });
    setBusy(false);
  };
  return (
    <>
      <section aria-labelledby="account-title" class="narrow">
        <h1 id="account-title">Account</h1>
        <p>
          Signed in as <strong>{session.value?.username}</strong> ({session.value?.role}).
        </p>
        <form onSubmit={submit}>
          <h2>Change password</h2>
          <label>
            Current password
            <input name="current_password" type="password" required autoComplete="current-password" />
          </label>
          <label>
            New password
            <input
              name="new_password"
              type="password"
              required
              minLength={NewPassword.minLength}
              maxLength={NewPassword.maxLength}
              autoComplete="new-password"
            />
          </label>
          <label>
            New password again
            <input name="repeat" type="password" required autoComplete="new-password" />
          </label>
          <Problem error={action.error} />
          {done && (
            <p class="notice success" role="status">
              Your password was changed.
            </p>
          )}
          <button type="submit" disabled={busy}>
            Change password
          </button>
        </form>
      </section>
      <TwoFactor />
      <Sessions />
      <ApiKeys />
    </>
  );
}
