import { useEffect, useState } from 'preact/hooks';
import { AUDIT_TARGET_KINDS, type AuditEntry } from '@garrison/core';
import { client } from '../session.js';
import { Problem, useAction } from '../components/problem.js';
import { TableHead } from '../components/table-head.js';
import { Pager } from '../components/pager.js';
import { useDebounced } from '../components/debounced.js';
import { saveFile } from '../components/save-file.js';
import { useQuery } from '../cache/use-query.js';
import { serverNames, when } from '../format.js';

const PAGE = 50;

interface Filters {
  actor: string;
  server: string;
  kind: string;
  since: string;
  until: string;
}
const NONE: Filters = { actor: '', server: '', kind: '', since: '', until: '' };

/** The filters as the API's query: a local date-time field's value is the reader's time, sent as UTC. */
function queryOf(f: Filters) {
  const instant = (local: string) => (local ? new Date(local).toISOString() : undefined);
  return {
    ...(f.actor.trim() ? { actor: f.actor.trim() } : {}),
    ...(f.server ? { server_id: Number(f.server) } : {}),
    ...(f.kind ? { target_kind: f.kind as AuditEntry['target_kind'] } : {}),
    ...(f.since ? { since: instant(f.since) } : {}),
    ...(f.until ? { until: instant(f.until) } : {}),
  };
}

const detail = (d: Record<string, unknown>) =>
  Object.entries(d)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');

/**
 * The service's whole audit trail, for admins: who did what to which server, user, key, webhook or node,
 * newest first, filtered; the same filters export every matching entry as JSON lines.
 */
export function Audit() {
  const [filters, setFilters] = useState<Filters>(NONE);
  const [offset, setOffset] = useState(0);
  const settled = useDebounced(filters, 300);
  const query = queryOf(settled);
  const key = `trail:${JSON.stringify(query)}:${offset}`;
  const { data, error, reload } = useQuery(key, () => client.audit.list({ ...query, limit: PAGE, offset }), 0);
  const servers = useQuery('servers:all', () => client.servers.list({ limit: 500 })).data;
  const exporting = useAction();
  useEffect(() => void (document.title = 'Audit · Garrison'), []);
  const set = (field: keyof Filters) => (e: { currentTarget: { value: string } }) => {
    setFilters({ ...filters, [field]: e.currentTarget.value });
    setOffset(0);
  };
  const exportLines = () =>
    exporting.run(async () => {
      const stream = await client.audit.export(queryOf(filters));
      saveFile(await new Response(stream).blob(), 'garrison-audit.jsonl', 'application/x-ndjson');
    });

  return (
    <section aria-labelledby="audit-title">
      <div class="section-head">
        <h1 id="audit-title">Audit</h1>
        <div class="row-actions">
          <button type="button" class="quiet" onClick={() => reload()}>
            Refresh
          </button>
          <button type="button" onClick={() => void exportLines()}>
            Export JSON lines
          </button>
        </div>
      </div>
      <p class="small">
        Every change, with who made it, in one chain: each entry carries the hash of the one before it, and{' '}
        <code>garrison audit verify</code> checks it.
      </p>
      <div class="toolbar" role="group" aria-label="Audit filters">
        <label>
          Actor
          <input type="search" value={filters.actor} onInput={set('actor')} placeholder="A user, key or schedule name" />
        </label>
        <label>
          Server
          <select value={filters.server} onChange={set('server')}>
            <option value="">Any server</option>
            {servers?.map((s) => (
              <option key={s.id} value={String(s.id)}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          About
          <select value={filters.kind} onChange={set('kind')}>
            <option value="">Anything</option>
            {AUDIT_TARGET_KINDS.map((k) => (
              <option key={k} value={k}>
                {k.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="datetime-local" value={filters.since} onInput={set('since')} />
        </label>
        <label>
          Until
          <input type="datetime-local" value={filters.until} onInput={set('until')} />
        </label>
      </div>
      <Problem error={error} />
      <Problem error={exporting.error} onDismiss={exporting.dismiss} />
      {data && data.entries.length === 0 && <p class="empty">No entry matches.</p>}
      {data && data.entries.length > 0 && (
        <table class="table">
          <caption class="sr-only">Audit trail</caption>
          <TableHead columns={['When', 'What', 'Who', 'Server', 'About', 'Detail']} />
          <tbody>
            {data.entries.map((e) => (
              <tr key={e.id} data-entry-id={e.id}>
                <td>{when(e.timestamp)}</td>
                <td>{e.event_type.replace(/_/g, ' ')}</td>
                <td>{e.actor ?? (e.actor_id === 'cli' ? 'command line' : 'the service')}</td>
                <td>{e.server_id === null ? '–' : serverNames([e.server_id], servers)}</td>
                <td>
                  {e.target_kind.replace(/_/g, ' ')} {e.target_name ?? e.target_id ?? ''}
                </td>
                <td class="mono small">{detail(e.detail)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager offset={offset} limit={PAGE} total={data?.total ?? null} onChange={setOffset} />
    </section>
  );
}
