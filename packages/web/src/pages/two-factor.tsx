import { useState } from 'preact/hooks';
import { client } from '../session.js';
import { Problem, useAction } from '../components/problem.js';
import { saveFile } from '../components/save-file.js';
import { useQuery } from '../cache/use-query.js';

/** The recovery codes, shown once: to copy or download before leaving. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div class="notice" role="status" data-testid="recovery-codes">
      <p>
        Two-factor sign-in is on. Keep these recovery codes somewhere safe: each signs you in once if you lose the app. They are not shown
        again.
      </p>
      <ul class="codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <button type="button" class="quiet" onClick={() => void navigator.clipboard?.writeText(codes.join('\n'))}>
        Copy
      </button>{' '}
      <button type="button" class="quiet" onClick={() => saveFile(`${codes.join('\n')}\n`, 'garrison-recovery-codes.txt')}>
        Download
      </button>{' '}
      <button type="button" class="quiet" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

/** Two-factor sign-in: enrol with an authenticator app (QR code), get the recovery codes, or turn it off. */
export function TwoFactor() {
  const { data, error, reload } = useQuery('two-factor:', () => client.auth.twoFactor.status(), 0);
  const [setup, setSetup] = useState<{ secret: string; qr: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const action = useAction();

  const start = () =>
    action.run(async () => {
      // The QR code's library is loaded only by those who enrol (web README, Bundle size).
      const [made, { default: QRCode }] = await Promise.all([client.auth.twoFactor.setup(), import('qrcode')]);
      setSetup({ secret: made.secret, qr: await QRCode.toDataURL(made.otpauth_url, { margin: 1, width: 200 }) });
    });
  const enable = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    void action.run(async () => {
      setCodes((await client.auth.twoFactor.enable(String(form.get('code') ?? '').trim())).recovery_codes);
      setSetup(null);
      reload();
    });
  };
  const disable = (event: Event) => {
    event.preventDefault();
    const element = event.currentTarget as HTMLFormElement;
    const form = new FormData(element);
    void action.run(async () => {
      await client.auth.twoFactor.disable(String(form.get('password') ?? ''), String(form.get('code') ?? '').trim());
      element.reset();
      reload();
    });
  };

  return (
    <section aria-labelledby="two-factor-title" class="narrow">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      <Problem error={error} />
      <Problem error={action.error} onDismiss={action.dismiss} />
      {codes && <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />}
      {data && data.required && !data.enabled && (
        <p class="notice" role="alert">
          Two-factor sign-in is required for admins on this service: turn it on to go on.
        </p>
      )}
      {data && data.enabled && !codes && (
        <>
          <p data-testid="two-factor-state">On. {data.recovery_codes_left} recovery codes left.</p>
          <form onSubmit={disable}>
            <label>
              Password
              <input name="password" type="password" required autoComplete="current-password" />
            </label>
            <label>
              Code from the app (or a recovery code)
              <input name="code" required autoComplete="one-time-code" />
            </label>
            <button type="submit" class="danger">
              Turn off
            </button>
          </form>
        </>
      )}
      {data && !data.enabled && !setup && (
        <button type="button" onClick={() => void start()}>
          Turn on
        </button>
      )}
      {setup && (
        <form onSubmit={enable}>
          <p>Scan this with an authenticator app (or type the secret in), then enter the code it shows.</p>
          <img src={setup.qr} width={200} height={200} alt="QR code of the two-factor secret" />
          <p>
            Secret: <code data-testid="totp-secret">{setup.secret}</code>
          </p>
          <label>
            Code
            <input name="code" required inputMode="numeric" autoComplete="one-time-code" />
          </label>
          <button type="submit">Turn on</button>
        </form>
      )}
    </section>
  );
}
