import { randomInt } from 'node:crypto';
import type { ConfigValues } from '@garrison/core';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** Letters and digits only: BattlEye refuses symbols and spaces in its password. */
function randomPassword(length = 20): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

export function generateCredentials(): ConfigValues {
  return { server: { password_admin: randomPassword() }, rcon: { rcon_password: randomPassword() } };
}
