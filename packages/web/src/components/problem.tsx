import { useState } from 'preact/hooks';
import { GarrisonApiError, GarrisonNetworkError } from '@garrison/sdk';
import { endIfUnauthorized } from '../session.js';

/** The service's messages are terse lower-case phrases; a person reads a sentence. */
const SENTENCES: Record<string, string> = {
  'invalid username or password': 'Wrong username or password.',
  'the current password is wrong': 'The current password is wrong.',
};
const sentence = (message: string) =>
  SENTENCES[message] ?? `${message.charAt(0).toUpperCase()}${message.slice(1)}${/[.!?]$/.test(message) ? '' : '.'}`;

/**
 * A failure as a person reads it: a sentence, without the service's error code (see `codeOf`), and for
 * a 429 how long until the console tries again.
 */
export function describe(err: unknown): string {
  if (err instanceof GarrisonApiError) {
    if (err.status === 429) return `Slow down: too many requests. Retrying in ${err.retryAfterSeconds ?? 'a few'} s.`;
    if (err.status === 0) return `The service cannot be reached (${err.message}).`;
    return err.message ? sentence(err.message) : sentence(err.code.toLowerCase().replace(/_/g, ' '));
  }
  if (err instanceof GarrisonNetworkError || (err instanceof TypeError && /fetch|network/i.test(err.message)))
    return `The service cannot be reached (${err.message}). Check that it is running.`;
  return err instanceof Error ? err.message : String(err);
}

/** The service's code for a failure (`VALIDATION_ERROR`…), for the tooltip: support asks for it, people need not read it. */
const codeOf = (err: unknown): string | undefined => (err instanceof GarrisonApiError ? `${err.code} (HTTP ${err.status})` : undefined);

export function Problem({ error, onDismiss }: { error: unknown; onDismiss?: () => void }) {
  if (!error) return null;
  const code = codeOf(error);
  return (
    <div class="problem" role="alert">
      <span title={code} data-code={code}>
        {describe(error)}
      </span>
      {onDismiss && (
        <button type="button" class="quiet" onClick={onDismiss} aria-label="Dismiss">
          ×
        </button>
      )}
    </div>
  );
}

export type Run = (action: () => Promise<unknown>) => Promise<boolean>;

/**
 * A change the user asked for (delete, revoke, save…): `run` clears the last failure, ends a refused
 * session, and keeps any other failure to show; it resolves to whether the change was made.
 */
export function useAction() {
  const [error, setError] = useState<unknown>(null);
  const run: Run = async (action) => {
    setError(null);
    try {
      await action();
      return true;
    } catch (err) {
      endIfUnauthorized(err);
      setError(err);
      return false;
    }
  };
  return { error, run, dismiss: () => setError(null) };
}
