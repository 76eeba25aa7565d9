import { isIP } from 'node:net';
import type { IdentityKind } from '@garrison/core';

const GUID = /^[0-9a-f]{32}$/i;
/** A dotted IPv4 address, or hexadecimal digits with colons (an IPv6 one): the kind's shape, `isIP` checks it exactly. */
const ADDRESS_SHAPE = '^(?:\\d{1,3}(?:\\.\\d{1,3}){3}|[0-9a-fA-F]*:[0-9a-fA-F:.]*)$';

/**
 * How the game knows a player, and what its ban file takes: BattlEye's GUID (first: what a ban takes by
 * default) and the address a player connects from.
 */
export const IDENTITIES: readonly IdentityKind[] = [
  {
    kind: 'GUID',
    label: 'GUID',
    example: '80a5885ebe2420bab5e1581234567890',
    pattern: '^[0-9a-fA-F]{32}$',
    problem: (value) => (GUID.test(value) ? null : 'a GUID ban needs a 32-character hexadecimal GUID'),
    normalize: (value) => value.trim().toLowerCase(),
  },
  {
    kind: 'IP',
    label: 'IP address',
    example: '203.0.113.7',
    address: true,
    pattern: ADDRESS_SHAPE,
    problem: (value) => (isIP(value) ? null : 'an IP ban needs an IPv4 or IPv6 address'),
    normalize: (value) => value.trim(),
  },
];
