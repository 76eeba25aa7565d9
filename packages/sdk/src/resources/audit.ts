import type { Caller, Query, Result } from './calls.js';

/** The service's audit trail (admins): who did what, to which server, user, key, webhook or node. */
export const audit = (c: Caller) => ({
  /** Newest first, one page; filters: actor, actor_kind, server_id, target_kind, event_type, since, until. */
  list: (query: Query<'listAudit'> = {}): Result<'listAudit'> => c.call('listAudit', { query }),
  /** Every matching entry, oldest first, as JSON lines (one `AuditEntry` a line), streamed. */
  export: (query: Omit<Query<'listAudit'>, 'format' | 'limit' | 'offset'> = {}) => c.read('listAudit', {}, { ...query, format: 'jsonl' }),
});
