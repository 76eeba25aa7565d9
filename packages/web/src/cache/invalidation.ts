import type { AuditEvent } from '@garrison/core';
import { invalidate } from './store.js';

/**
 * Which cached reads a live event makes out of date. Keys are `<resource>:<server id>:<the rest>`; the
 * lists of every server are `servers:…`.
 */
const byAuditType: Partial<Record<AuditEvent['event_type'], string[]>> = {
  server_created: ['servers:'],
  server_deleted: ['servers:'],
  server_updated: ['servers:', 'server:', 'config:', 'preview:'],
  config_changed: ['config:', 'rotation:', 'mods:', 'preview:', 'server:', 'servers:'],
  kick: ['bans:', 'history:'],
  ban: ['bans:'],
  unban: ['bans:'],
  ban_file_changed: ['bans:'],
  mission_uploaded: ['missions:', 'rotation:'],
  mission_deleted: ['missions:', 'rotation:'],
  log_file_deleted: ['logfiles:'],
  logs_cleared: ['logs:'],
  schedule_created: ['schedules:'],
  schedule_updated: ['schedules:'],
  schedule_deleted: ['schedules:'],
  schedule_disabled: ['schedules:'],
  schedule_run: ['schedules:', 'schedule-runs:'],
  backup_started: ['backups:'],
  backup_failed: ['backups:'],
  backup_updated: ['backups:'],
  backup_deleted: ['backups:'],
  backup_restored: ['backups:', 'config:', 'preview:', 'bans:'],
};
const PROCESS_CHANGES = ['processes:', 'logfiles:', 'history:'];

const perServer = (prefixes: string[], serverId: number) => prefixes.map((p) => (p === 'servers:' ? p : `${p}${serverId}:`));

/** Called for every live event the page receives. */
export function invalidateFor(type: string, serverId: number, data: unknown): void {
  switch (type) {
    case 'server_status':
    case 'process_status':
      // The record, the list and the processes are patched by the components that show them.
      invalidate(perServer(['server:', 'servers:'], serverId), true);
      // A node that went offline or came back changes the nodes' states (and their counts).
      invalidate(['nodes:']);
      return invalidate(perServer(PROCESS_CHANGES, serverId), type === 'process_status');
    case 'players':
      invalidate(perServer(['players:'], serverId), true);
      return invalidate(perServer(['history:'], serverId));
    case 'log':
      return invalidate(perServer(['logs:'], serverId), true);
    case 'metrics':
      return invalidate(perServer(['metrics:'], serverId), true);
    case 'backup':
      // The tab shows the bytes of a running backup from the event itself; its end is read again.
      return invalidate(perServer(['backups:'], serverId), (data as { status: string }).status === 'running');
    case 'schedule_run':
      // Nothing on the page applies a run's progress itself: read again.
      return invalidate(perServer(['schedule-runs:', 'schedules:'], serverId));
    case 'event': {
      const { event_type } = data as AuditEvent;
      invalidate(perServer(['audit:'], serverId), true);
      // The whole trail's pages (admins): an entry of a server came.
      invalidate(['trail:']);
      return invalidate(perServer(byAuditType[event_type] ?? [], serverId));
    }
    default:
  }
}

/**
 * A live connection was (re)opened: what was read before it began to connect may have missed events
 * while there was none. (A read that completed while it connected is kept: a change in those few
 * milliseconds is the one case a reload would have caught.)
 */
export function invalidateMissed(serverIds: number[] | null, connectingSince: number): void {
  const ids = serverIds ?? null;
  if (ids === null) return invalidate([''], false, connectingSince);
  invalidate(ids.flatMap((id) => perServer(['server:', 'players:', 'bans:', 'missions:', 'rotation:', 'mods:', 'config:', 'preview:', 'audit:', 'processes:', 'logfiles:', 'history:', 'logs:', 'metrics:', 'schedules:', 'schedule-runs:', 'backups:'], id)), false, connectingSince);
}
