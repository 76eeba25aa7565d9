import type { AuditEvent, LiveEventType } from '@garrison/core';
import { invalidate } from './store.js';
import { CACHE_RULES } from './rules/index.js';

// Which cached reads a live event makes out of date: each feature declares its own in
// rules/<feature>.ts; this file only composes them.

/** Reads about no one server, named as they are. */
const EVERY_SERVER = new Set(['servers:', 'nodes:', 'trail:']);
const perServer = (prefixes: string[], serverId: number) => prefixes.map((p) => (EVERY_SERVER.has(p) ? p : `${p}${serverId}:`));

/** Every feature's reads an audit entry type makes out of date, marked together. */
const byAuditType = new Map<string, string[]>();
for (const rules of CACHE_RULES) {
  for (const [type, keys] of Object.entries(rules.audit ?? {})) byAuditType.set(type, [...(byAuditType.get(type) ?? []), ...keys]);
}
const LIVE_RULES = CACHE_RULES.flatMap((rules) => rules.live ?? []);
const SERVER_KEYS = CACHE_RULES.flatMap((rules) => rules.serverKeys);

/** Called for every live event the page receives. */
export function invalidateFor(type: string, serverId: number, data: unknown): void {
  for (const rule of LIVE_RULES) {
    if (!rule.on.includes(type as LiveEventType)) continue;
    invalidate(perServer(rule.keys, serverId), rule.appliedLive?.(type as LiveEventType, data) ?? false);
  }
  if (type === 'event') invalidate(perServer(byAuditType.get((data as AuditEvent).event_type) ?? [], serverId));
}

/**
 * A live connection was (re)opened: what was read before it began to connect may have missed events
 * while there was none. (A read that completed while it connected is kept: a change in those few
 * milliseconds is the one case a reload would have caught.)
 */
export function invalidateMissed(serverIds: number[] | null, connectingSince: number): void {
  const ids = serverIds ?? null;
  if (ids === null) return invalidate([''], false, connectingSince);
  invalidate(
    ids.flatMap((id) => perServer(SERVER_KEYS, id)),
    false,
    connectingSince,
  );
}
