import { useEffect, useRef, useState } from 'preact/hooks';
import { signIn, signInSecondStep, signOutReason } from '../session.js';
import { Problem } from '../components/problem.js';

export function SignIn() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  /** Set once the password was right for a user with two-factor sign-in: the code is asked next. */
  const [mfaToken, setMfaToken] = useState<string | null>(null);
  const [code, setCode] = useState('');
  // Focused once on the page, not through `autofocus`, which the browser applies only at a later frame.
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (mfaToken) await signInSecondStep(mfaToken, code.trim());
      else setMfaToken((await signIn(username, password))?.mfaToken ?? null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="sign-in">
      <form onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Garrison</h1>
        {signOutReason.value && (
          <p class="notice" role="status">
            {signOutReason.value}
          </p>
        )}
        {mfaToken ? (
          <label>
            Code from your authenticator app (or a recovery code)
            <input
              name="code"
              autocomplete="one-time-code"
              inputMode="text"
              autocapitalize="off"
              spellcheck={false}
              required
              autoFocus
              value={code}
              onInput={(e) => setCode(e.currentTarget.value)}
            />
          </label>
        ) : (
          <>
            <label>
              Username
              <input
                ref={first}
                name="username"
                autocomplete="username"
                required
                value={username}
                onInput={(e) => setUsername(e.currentTarget.value)}
              />
            </label>
            <label>
              Password
              <input
                name="password"
                type="password"
                autocomplete="current-password"
                required
                value={password}
                onInput={(e) => setPassword(e.currentTarget.value)}
              />
            </label>
          </>
        )}
        <Problem error={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : mfaToken ? 'Verify' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
