import { GarrisonClient, GarrisonApiError } from '@garrison/sdk';
import { signal } from '@preact/signals';
import { clearCache, whenReadFails } from './cache/store.js';
import { forgetBudget, noteBudget } from './cache/rate-budget.js';
import { expectOnly } from '@garrison/core';

/** Who is signed in: kept for the browser tab's session only, never beyond it. */
export interface Session {
  token: string;
  username: string;
  role: 'admin' | 'viewer';
}

const KEY = 'garrison.session';

function stored(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch (err) {
    expectOnly(err, SyntaxError, DOMException); // a damaged entry, or storage the browser refuses: signed out
    return null;
  }
}

const REASON_KEY = 'garrison.signOutReason';

function storedReason(): string | null {
  try {
    return sessionStorage.getItem(REASON_KEY);
  } catch (err) {
    expectOnly(err, DOMException); // storage the browser refuses: no reason kept
    return null;
  }
}

export const session = signal<Session | null>(stored());
/**
 * Why the user was sent back to the sign-in page, shown there until they sign in again. Kept for the
 * tab's session: a page reloaded after the live connection ended the session still says why.
 */
export const signOutReason = signal<string | null>(storedReason());

/** The one client of the service: every request and the live events go through the SDK. */
export const client = new GarrisonClient({ baseUrl: location.origin, token: session.value?.token ?? null, onRateLimit: noteBudget });

/** Signs in; for a user with two-factor sign-in, answers the token of the second step instead. */
export async function signIn(username: string, password: string): Promise<{ mfaToken: string } | null> {
  const result = await client.login(username, password);
  if (!('access_token' in result)) return { mfaToken: result.mfa_token };
  await signedIn(result.access_token);
  return null;
}

/** The second step: the authenticator app's code, or a recovery code. */
export async function signInSecondStep(mfaToken: string, code: string): Promise<void> {
  await signedIn((await client.loginSecondStep(mfaToken, code)).access_token);
}

async function signedIn(token: string): Promise<void> {
  const me = await client.auth.me();
  const next: Session = { token, username: me.username, role: me.role };
  sessionStorage.setItem(KEY, JSON.stringify(next));
  sessionStorage.removeItem(REASON_KEY);
  signOutReason.value = null;
  session.value = next;
}

/** What must be forgotten when a user signs out (what they did and read), beyond the read cache. */
const forgetters: (() => void)[] = [];
export const forgetAtSignOut = (forget: () => void) => void forgetters.push(forget);

export function signOut(reason: string | null = null): void {
  sessionStorage.removeItem(KEY);
  if (reason === null) sessionStorage.removeItem(REASON_KEY);
  else sessionStorage.setItem(REASON_KEY, reason);
  for (const forget of forgetters) forget();
  client.token = null;
  clearCache();
  forgetBudget();
  signOutReason.value = reason;
  session.value = null;
}

/**
 * The console's Sign out: this session is ended on the service before its token is forgotten, so that
 * a copy of the token (a shared machine, a saved page) is refused from then on. Signing out happens
 * whatever the service answers; what it could not end is said.
 */
export async function signOutHere(): Promise<void> {
  try {
    const mine = (await client.auth.sessions()).find((s) => s.current);
    if (mine) await client.auth.endSession(mine.id);
    signOut('You signed out: this session has ended.');
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    signOut(
      `You signed out here, but the service could not end the session (${why}): end it from Account, Sessions, or it ends by ` +
        `itself when it expires.`,
    );
  }
}

/** A refused token (expired, or its user deleted) ends the session with a message instead of a broken page. */
export function endIfUnauthorized(err: unknown): void {
  if (err instanceof GarrisonApiError && err.status === 401 && session.value) {
    signOut('Your session has ended (the sign-in expired or was revoked). Please sign in again.');
  }
}

export const isAdmin = (): boolean => session.value?.role === 'admin';

whenReadFails(endIfUnauthorized);
