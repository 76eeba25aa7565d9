import { defineEndpoint } from '../endpoint.js';
import { AuditEntryPage, AuditListQuery } from './audit.js';

/** The service's audit trail (the per-server view, `GET /servers/{id}/events`, is lifecycle's). */
export const auditEndpoints = {
  listAudit: defineEndpoint({
    operationId: 'listAudit',
    method: 'GET',
    path: '/audit',
    tag: 'audit',
    summary: 'The audit trail of the whole service: who did what, to which server, user, key, webhook or node',
    access: 'admin',
    scope: 'admin',
    query: AuditListQuery,
    status: 200,
    response: AuditEntryPage,
    errors: ['VALIDATION_ERROR'],
    notes:
      'Newest first, filtered by actor, server, target kind, event type and time. `?format=jsonl` (or `Accept: application/x-ndjson`) ' +
      'exports every matching entry, oldest first, as JSON lines (`application/x-ndjson`), streamed; `limit` and `offset` do not apply ' +
      'to it. Each entry carries `hash` and `prev_hash`: `garrison audit verify` checks the chain.',
  }),
} as const;
