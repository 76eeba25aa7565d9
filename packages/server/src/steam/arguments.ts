import { isAbsolute } from 'node:path';
import { ApiError, STEAM_BRANCH_PATTERN, STEAM_GUARD_CODE_PATTERN, STEAM_SECRET_PATTERN, STEAM_USERNAME_PATTERN } from '@garrison/core';

/**
 * The command line of one SteamCMD run. SteamCMD reads every argument that starts with `+` as a new
 * command, so a value that starts with one (a branch, a password) would run a command of the caller's
 * choosing: such values are refused here, before anything starts. App ids come from the caller (the
 * adapter declares them); nothing here knows a game.
 */

/** Who logs in: Steam's anonymous account, or a user (with a Steam Guard code when Steam asks for one). */
type SteamLogin = { anonymous: true } | { anonymous?: false; username: string; password: string; guardCode?: string };

/** What one run does, under one login. */
type SteamWork =
  /** Installs or updates an app (a dedicated server) into the install folder, from a branch when given. */
  | { kind: 'app_update'; appId: string; branch?: string; branchPassword?: string }
  /** Downloads Workshop items of an app, every item in the same run (one login: Steam limits logins). */
  | { kind: 'workshop'; appId: string; items: string[] }
  /** Asks Steam for an app's current builds per branch (`+app_info_print`). */
  | { kind: 'app_info'; appId: string };

export interface SteamCall {
  /** `+force_install_dir`: where the app goes, or under which `steamapps/workshop` the items go. */
  installDir: string;
  login: SteamLogin;
  work: SteamWork;
}

const ID = /^[0-9]{1,20}$/;
const BRANCH = new RegExp(STEAM_BRANCH_PATTERN);
const USERNAME = new RegExp(STEAM_USERNAME_PATTERN);
const GUARD_CODE = new RegExp(STEAM_GUARD_CODE_PATTERN);
const SECRET = new RegExp(STEAM_SECRET_PATTERN);
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;

function refuse(field: string, why: string): never {
  throw new ApiError('VALIDATION_ERROR', `${field}: ${why}`);
}

function id(field: string, value: string): string {
  if (!ID.test(value)) refuse(field, 'must be a numeric Steam id');
  return value;
}

/**
 * A secret (password, beta password) handed to SteamCMD as one quoted value: core's rule, which the API
 * checks too (STEAM_SECRET_PATTERN: no leading `+`, control character or double quote). The message never
 * repeats the value.
 */
function secret(field: string, value: string): string {
  if (value === '') refuse(field, 'must not be empty');
  if (!SECRET.test(value)) refuse(field, 'cannot start with + nor hold control characters or double quotes (SteamCMD would misread it)');
  return value;
}

function loginArguments(login: SteamLogin): string[] {
  if (login.anonymous) return ['+login', 'anonymous'];
  if (!USERNAME.test(login.username)) refuse('username', 'a Steam account name is letters, digits and underscores');
  const args = ['+login', login.username, secret('password', login.password)];
  if (login.guardCode !== undefined) {
    if (!GUARD_CODE.test(login.guardCode)) refuse('guard_code', 'a Steam Guard code is 5 letters or digits');
    args.push(login.guardCode);
  }
  return args;
}

function workArguments(work: SteamWork): string[] {
  const app = id('app id', work.appId);
  switch (work.kind) {
    case 'app_update': {
      const args = ['+app_update', app];
      if (work.branch !== undefined && work.branch !== 'public') {
        if (!BRANCH.test(work.branch)) refuse('branch', 'letters, digits, dots, dashes and underscores, no spaces');
        args.push('-beta', work.branch);
        if (work.branchPassword !== undefined) args.push('-betapassword', secret('branch_password', work.branchPassword));
      } else if (work.branchPassword !== undefined) {
        refuse('branch_password', 'only with a branch other than public');
      }
      return [...args, 'validate'];
    }
    case 'workshop': {
      if (work.items.length === 0) refuse('items', 'at least one Workshop item');
      if (new Set(work.items).size !== work.items.length) refuse('items', 'each Workshop item once');
      return work.items.flatMap((item) => ['+workshop_download_item', app, id('Workshop item', item), 'validate']);
    }
    case 'app_info':
      return ['+app_info_update', '1', '+app_info_print', app];
  }
}

/** The argv of one run (without the executable). Throws VALIDATION_ERROR for a value SteamCMD would misread. */
export function steamArguments(call: SteamCall): string[] {
  if (!isAbsolute(call.installDir) || CONTROL.test(call.installDir) || call.installDir.includes('"')) {
    refuse('install folder', 'must be an absolute path without double quotes');
  }
  return [
    // Never wait for a password on stdin, and stop at the first failed command instead of going on.
    '+@NoPromptForPassword',
    '1',
    '+@ShutdownOnFailedCommand',
    '1',
    '+force_install_dir',
    call.installDir,
    ...loginArguments(call.login),
    ...workArguments(call.work),
    '+quit',
  ];
}

/**
 * The runscript of one run: the commands of `steamArguments`, one per line without their `+`, every value
 * in double quotes (a secret may hold spaces; none holds a quote or a line break, see `secret`). SteamCMD
 * reads the secrets from this file instead of its command line, which any local user can read in /proc.
 */
export function steamScript(args: readonly string[]): string {
  const lines: string[] = [];
  for (const word of args) {
    if (word.startsWith('+')) lines.push(word.slice(1));
    else lines[lines.length - 1] += ` "${word}"`;
  }
  return `${lines.join('\n')}\n`;
}

/** The values of a call that must never leave the runner: the password, the Guard code, the beta password. */
export function secretsOf(call: SteamCall): string[] {
  const secrets: (string | undefined)[] = [];
  if (!call.login.anonymous) secrets.push(call.login.password, call.login.guardCode);
  if (call.work.kind === 'app_update') secrets.push(call.work.branchPassword);
  return secrets.filter((s): s is string => s !== undefined && s !== '');
}

const REDACTED = '***';

/**
 * `text` with every occurrence of every secret replaced: applied to each line that leaves the runner (log,
 * callbacks, error messages). Longer secrets go first, so that one holding another is masked whole.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of [...secrets].filter((s) => s !== '').sort((a, b) => b.length - a.length)) out = out.split(s).join(REDACTED);
  return out;
}

/** What a line says in place of the Steam account's name. */
const ACCOUNT_NAME_SHOWN = 'the Steam account';

/**
 * `text` without the name of the account `call` logs in with: account data, while a job's log and error are
 * read by viewers too. Whole words only (a name is letters, digits and underscores), in any case; its SteamID too.
 */
export function withoutAccountName(text: string, call: SteamCall): string {
  if (call.login.anonymous || call.login.username === '') return text;
  const name = call.login.username.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Steam names ignore case; the account's SteamID (`[U:1:123]`, `7656119…`) leads to its profile as surely.
  return text
    .replace(new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`, 'gi'), ACCOUNT_NAME_SHOWN)
    .replace(/\[U:\d:\d+\]/g, '[its SteamID]')
    .replace(/\b7656119\d{10}\b/g, 'its SteamID');
}
