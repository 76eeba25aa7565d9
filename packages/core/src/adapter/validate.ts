import { BanType } from '../schemas/players.js';
import {
  ADAPTER_API_VERSION,
  CAPABILITIES,
  CAPABILITY_MEMBERS,
  isAdapterDefinition,
  type AdapterDefinition,
  type Capability,
} from './contract.js';
import type { IdentityKind } from './identity.js';

/** What keeps a value from being a usable adapter, and what to do about it. */
export interface AdapterProblem {
  reason: string;
  hint: string;
}

/** A game type as the service and its URLs use it: a lower-case identifier. */
export const GAME_TYPE_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * The one check of an adapter's shape, made by the service's loader before it accepts an adapter and
 * by the testkit's conformance suite, so that an adapter the suite passes is one the service loads.
 * Null when the value is a complete adapter of this API version.
 */
export function adapterDefinitionProblem(value: unknown): AdapterProblem | null {
  if (!isAdapterDefinition(value)) {
    return {
      reason: 'the default export is not an adapter',
      hint: 'default-export the result of defineAdapter({...}) from @garrison/core',
    };
  }
  if (value.apiVersion !== ADAPTER_API_VERSION) {
    return {
      reason: `adapter API version ${value.apiVersion}, expected ${ADAPTER_API_VERSION}`,
      hint: "rebuild it against this server's @garrison/core",
    };
  }
  const { identity } = value;
  for (const key of ['game_type', 'display_name', 'version', 'schema_version'] as const) {
    if (typeof identity?.[key] !== 'string' || !identity[key]) {
      return { reason: `identity.${key} is missing`, hint: 'give the adapter a game_type, display_name, version and schema_version' };
    }
  }
  if (!GAME_TYPE_PATTERN.test(identity.game_type)) {
    return {
      reason: `game_type ${JSON.stringify(identity.game_type)} is not a lower-case identifier`,
      hint: 'use letters, digits, - and _',
    };
  }
  for (const [name, impl] of Object.entries(value.capabilities ?? {})) {
    if (!(CAPABILITIES as readonly string[]).includes(name)) {
      return { reason: `unknown capability ${name}`, hint: `capabilities are named ${CAPABILITIES.join(', ')}` };
    }
    const missing = CAPABILITY_MEMBERS[name as Capability].filter(
      (m) => (impl as unknown as Record<string, unknown>)?.[m as string] === undefined,
    );
    if (missing.length) {
      return {
        reason: `capability ${name} lacks ${missing.join(', ')}`,
        hint: 'implement every member of the capability interface in @garrison/core',
      };
    }
  }
  return identitiesProblem(value);
}

/** The kind names the API's `ban_type` takes: the contract's pattern and length. */
const KIND_NAME = new RegExp(BanType.pattern!);

/**
 * A game that bans or lists players names the kinds of identity it knows them by: the bans, players and
 * history the service keeps carry those names as `ban_type`, so each is one the API takes, in upper case
 * (the service compares kinds exactly), and no two are alike.
 */
function identitiesProblem(adapter: AdapterDefinition): AdapterProblem | null {
  // As a plugin gave it: a JavaScript adapter's list may hold anything.
  const kinds = adapter.identities as unknown;
  const by = ['remote_admin', 'ban_manager'].filter((c) => Object.hasOwn(adapter.capabilities, c));
  const hint = 'declare identities: [{ kind, label, example, problem, normalize }], kinds in upper case (GUID, IP, STEAMID), each once';
  if (kinds !== undefined && !Array.isArray(kinds)) return { reason: 'identities is not a list', hint };
  if (!kinds?.length) return by.length ? { reason: `an adapter with ${by.join(' and ')} declares no identities`, hint } : null;
  const seen = new Set<string>();
  for (const [i, kind] of (kinds as (Partial<IdentityKind> | null)[]).entries()) {
    const name = kind?.kind;
    if (typeof name !== 'string' || !KIND_NAME.test(name) || name.length > BanType.maxLength! || name !== name.toUpperCase()) {
      const reason = `identities[${i}].kind ${JSON.stringify(name)} is not an upper-case identifier of at most ${BanType.maxLength}`;
      return { reason, hint };
    }
    if (seen.has(name)) return { reason: `identities[${i}].kind ${name} is declared twice`, hint };
    seen.add(name);
    if (typeof kind?.problem !== 'function' || typeof kind.normalize !== 'function')
      return { reason: `identities[${i}] (${name}) lacks problem or normalize`, hint };
    if (kind.pattern !== undefined && patternProblem(kind.pattern) !== null)
      return {
        reason: `identities[${i}].pattern (${name}): ${patternProblem(kind.pattern)}`,
        hint: 'give the source of a RegExp, or none',
      };
  }
  return null;
}

/** Why a kind's pattern is no regular expression's source (the console compiles it), or null. */
function patternProblem(pattern: unknown): string | null {
  if (typeof pattern !== 'string') return 'not a string';
  try {
    new RegExp(pattern);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}
