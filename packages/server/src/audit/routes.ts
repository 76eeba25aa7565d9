import { Readable } from 'node:stream';
import { endpoints, queryInstantMs, type AuditEntry, type AuditListQuery } from '@garrison/core';
import type { Context } from 'koa';
import { ANSWERED, type RouteTable } from '../http/route-table.js';
import type { AuditFilter } from '../db/repositories/audit.js';
import type { AuditService } from './service.js';

const JSON_LINES = 'application/x-ndjson';

/** Query times as the trail stores them (ISO 8601 UTC), so that they compare as text. */
const instant = (value: string | undefined, field: string) =>
  value === undefined ? undefined : new Date(queryInstantMs(value, field)).toISOString();

function filterOf(query: AuditListQuery): AuditFilter {
  const { actor, actor_kind, server_id, target_kind, event_type } = query;
  const filter: AuditFilter = {
    actor,
    actor_kind,
    server_id,
    target_kind,
    event_type,
    since: instant(query.since, 'since'),
    until: instant(query.until, 'until'),
  };
  return Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined));
}

const wantsLines = (query: AuditListQuery, ctx: Context) =>
  query.format === 'jsonl' || (query.format === undefined && ctx.get('accept').includes(JSON_LINES));

/** Streamed line by line as the entries are read in batches: an export of any length holds one batch in memory. */
async function* lines(entries: AsyncGenerator<AuditEntry>): AsyncGenerator<string> {
  for await (const entry of entries) yield `${JSON.stringify(entry)}\n`;
}

export function auditRoutes(routes: RouteTable, audit: AuditService): void {
  routes.implement(endpoints.listServerEvents, async ({ params, query }) => audit.listOfServer(params.server_id, query));
  routes.implement(endpoints.listAudit, async ({ query, ctx }) => {
    const filter = filterOf(query);
    if (!wantsLines(query, ctx)) return audit.list(filter, { limit: query.limit ?? 50, offset: query.offset ?? 0 });
    ctx.status = 200;
    ctx.type = JSON_LINES;
    ctx.attachment('audit.jsonl', { type: 'inline' });
    ctx.body = Readable.from(lines(audit.export(filter)));
    return ANSWERED as never;
  });
}
