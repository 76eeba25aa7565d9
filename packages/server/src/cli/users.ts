import 'reflect-metadata';
import { ApiError, NewPassword, Username, Value, type Role, type TSchema } from '@garrison/core';
import { UserService } from '../auth/service.js';
import { generatePassword } from '../auth/passwords.js';
import { TwoFactorService } from '../auth/two-factor.js';
import { UsageError } from './usage.js';
import { CLI_ACTOR } from '../audit/actors.js';
import type { Store } from './store.js';

const users = (store: Store) => store.container.resolve(UserService);

/** A password from standard input (its first line), for scripts; refused when empty. */
export async function passwordFromStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += chunk;
    if (text.length > 4096) throw new UsageError('the password on standard input is longer than 4096 characters');
  }
  const password = text.split(/\r?\n/)[0] ?? '';
  if (!password) throw new UsageError('no password on standard input');
  return password;
}

/** The same rules as the HTTP API's, so that the CLI cannot make a user the API would refuse. */
function check(schema: TSchema, value: string, what: string, command: string): void {
  const error = Value.Errors(schema, value).First();
  if (error) throw new UsageError(`${what}: ${error.message}`, command);
}

export async function resetPassword(store: Store, username: string, fromStdin: boolean): Promise<void> {
  const password = fromStdin ? await passwordFromStdin() : generatePassword();
  check(NewPassword, password, 'the password', 'admin reset-password');
  try {
    await users(store).setPassword(username, password, CLI_ACTOR);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'NOT_FOUND')
      throw new Error(`there is no user ${JSON.stringify(username)} (garrison users list shows them)`, { cause: err });
    throw err;
  }
  console.log(fromStdin ? `password of ${username} changed` : `new password of ${username}: ${password}`);
}

/** For a user who lost their authenticator app and their recovery codes: two-factor sign-in turned off. */
export async function resetTwoFactor(store: Store, username: string): Promise<void> {
  try {
    await store.container.resolve(TwoFactorService).reset(username, CLI_ACTOR);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'NOT_FOUND')
      throw new Error(`there is no user ${JSON.stringify(username)} (garrison users list shows them)`, { cause: err });
    throw err;
  }
  console.log(`two-factor sign-in of ${username} is off: they sign in with their password, and may enrol again`);
}

export async function createUser(store: Store, username: string, role: Role, fromStdin: boolean): Promise<void> {
  check(Username, username, 'the user name', 'users create');
  const password = fromStdin ? await passwordFromStdin() : generatePassword();
  check(NewPassword, password, 'the password', 'users create');
  try {
    await users(store).create(username, password, role, CLI_ACTOR);
  } catch (err) {
    if (err instanceof ApiError) throw new Error(err.message, { cause: err });
    throw err;
  }
  console.log(fromStdin ? `created ${role} ${username}` : `created ${role} ${username} with password: ${password}`);
}

export async function listUsers(store: Store, json: boolean): Promise<void> {
  const all = await users(store).list();
  if (json) {
    console.log(JSON.stringify(all));
    return;
  }
  const rows = [
    ['ID', 'USERNAME', 'ROLE', 'CREATED', 'LAST LOGIN'],
    ...all.map((u) => [String(u.id), u.username, u.role, u.created_at, u.last_login ?? '-']),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const row of rows)
    console.log(
      row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    );
}
