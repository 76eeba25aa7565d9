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
      'Newest first, filtered. `?format=jsonl` (or `Accept: application/x-ndjson`) streams every match, oldest first, as JSON lines ' +
      '(no `limit`/`offset`). `hash` and `prev_hash` chain the entries: `garrison audit verify`.',
  }),
} as const;
