import { EXIT, type Outcome, type SteamConsole } from './context.js';
import { updateState } from './state.js';

/** The lines steamcmd prints when the account needs a Steam Guard code from its e-mail. */
const GUARD_TEXT = [
  'This computer has not been authenticated for your account using Steam Guard.',
  'Please check your email for the message from Steam, and enter the Steam Guard',
  ' code from that message.',
  "You can also enter this code at any time using 'set_steam_guard_code'",
  ' at the console.',
];

function loggedIn(steam: SteamConsole, first: string): Outcome {
  steam.out(first);
  steam.out('Waiting for client config...OK');
  steam.out('Waiting for user info...OK');
  return EXIT.ok;
}

/** `+login anonymous` | `+login <user> <password> [<Steam Guard code>]`. */
export function login(steam: SteamConsole, args: string[]): Outcome {
  const [username, password, code] = args;
  if (!username || args.length > 3) {
    steam.out('Usage: login <username> [<password>] [<Steam guard code>]');
    return EXIT.error;
  }
  if (username === 'anonymous') {
    steam.login = { username, anonymous: true };
    return loggedIn(steam, 'Connecting anonymously to Steam Public...OK');
  }
  const prefix = `Logging in user '${username}' [U:1:0] to Steam Public...`;
  const failed = (reason: string, lines: string[] = []): Outcome => {
    steam.login = null;
    if (lines.length) {
      steam.out(prefix);
      for (const line of lines) steam.out(line);
      steam.out(`Steam Guard code:FAILED (${reason})`);
    } else steam.out(`${prefix}FAILED (${reason})`);
    return EXIT.login;
  };
  const world = steam.world();
  if ((world.faults.rate_limit ?? 0) > 0) {
    updateState(steam.statePath, (s) => void (s.faults.rate_limit = Math.max(0, (s.faults.rate_limit ?? 1) - 1)));
    return failed('Rate Limit Exceeded');
  }
  const account = Object.hasOwn(world.accounts, username) ? world.accounts[username] : undefined;
  // Without a password and with prompting off there is nothing to try (no cached credentials in the fake).
  if (!account || password === undefined || account.password !== password) return failed('Invalid Password');
  if (account.guard_code !== undefined) {
    if (code === undefined) return failed('Account Logon Denied', GUARD_TEXT);
    if (code !== account.guard_code) return failed('Invalid Login Auth Code');
    // A machine that gave the right code is remembered (steamcmd keeps a sentry) when the account says so.
    if (account.remember_guard) updateState(steam.statePath, (s) => void delete s.accounts[username]?.guard_code);
  }
  steam.login = { username, anonymous: false };
  return loggedIn(steam, `${prefix}OK`);
}

/** Whether the logged-in user may use `app`: anonymous where the app allows it, else an account that owns it. */
export function entitled(steam: SteamConsole, app: string, anonymousAllowed: boolean): boolean {
  const user = steam.login;
  if (!user) return false;
  if (anonymousAllowed) return true;
  if (user.anonymous) return false;
  const account = steam.world().accounts[user.username];
  return account?.owns.includes(app) ?? false;
}
