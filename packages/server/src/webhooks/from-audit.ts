import type { ActorKind, AuditEventType, WebhookEventData, WebhookEventType } from '@garrison/core';
import type { ServerFacts } from '../db/repositories/servers.js';

export interface Happening<K extends WebhookEventType = WebhookEventType> {
  type: K;
  data: WebhookEventData<K>;
}

export interface AuditFacts {
  type: AuditEventType;
  actor: string | null;
  actorKind: ActorKind;
  detail: Record<string, unknown>;
  server: ServerFacts;
}

/** The audit entries webhooks hear of (the others cost no look-up). */
export const TOLD_TO_WEBHOOKS: ReadonlySet<AuditEventType> = new Set<AuditEventType>([
  'running',
  'stop',
  'kill',
  'crashed',
  'restart',
  'auto_restart',
  'kick',
  'ban',
  'config_changed',
  'schedule_run',
  'backup_failed',
]);

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);

/**
 * What webhooks are told of an entry of the audit trail (most of what they can subscribe to is recorded
 * there first, so the delivery is written in the same transaction as the entry). Crashes say whether the
 * supervisor gave up (no automatic restart left): that is `server.crash_loop` besides `server.crashed`.
 */
export function happeningsOf(facts: AuditFacts): Happening[] {
  const { detail, server } = facts;
  const base = { server_id: server.id, server_name: server.name };
  const by = facts.actorKind === 'system' ? null : facts.actor;
  const one = <K extends WebhookEventType>(type: K, data: WebhookEventData<K>): Happening[] => [{ type, data }];
  switch (facts.type) {
    case 'running':
      return one('server.started', { ...base, pid: int(detail.pid) });
    case 'stop':
      return one('server.stopped', { ...base, by, forced: detail.force === true });
    case 'kill':
      return one('server.stopped', { ...base, by, forced: true });
    case 'crashed': {
      const crashed = one('server.crashed', {
        ...base,
        exit_code: int(detail.exit_code),
        signal: str(detail.signal),
        restart_count: server.restart_count,
      });
      const gaveUp = server.auto_restart && server.restart_count >= server.max_restarts;
      return gaveUp
        ? [...crashed, ...one('server.crash_loop', { ...base, restart_count: server.restart_count, max_restarts: server.max_restarts })]
        : crashed;
    }
    case 'restart':
      return one('server.restarted', { ...base, reason: facts.actorKind === 'schedule' ? 'schedule' : 'manual', by });
    case 'auto_restart':
      return one('server.restarted', { ...base, reason: 'crash', by: null });
    case 'kick':
      return one('player.kicked', { ...base, player_name: str(detail.name) ?? '', reason: str(detail.reason), by });
    case 'ban':
      // A ban of an address (an identity kind the game marks `address`, told beside the detail): webhooks are not told addresses.
      return one('player.banned', {
        ...base,
        guid: detail.address === true ? null : str(detail.guid),
        duration_minutes: int(detail.duration_minutes),
        reason: str(detail.reason),
        by,
      });
    case 'config_changed':
      return one('config.changed', {
        ...base,
        section: str(detail.section) ?? '',
        fields: Array.isArray(detail.fields) ? detail.fields.map(String) : [],
        by,
      });
    case 'schedule_run': {
      const run = { ...base, schedule_id: int(detail.schedule_id) ?? 0, run_id: int(detail.run_id), reason: str(detail.reason) };
      if (detail.status === 'failed') return one('schedule.failed', run);
      if (detail.status === 'skipped') return one('schedule.skipped', run);
      return [];
    }
    case 'backup_failed':
      return one('backup.failed', { ...base, backup_id: int(detail.backup_id) ?? 0, reason: str(detail.reason) });
    default:
      return [];
  }
}
