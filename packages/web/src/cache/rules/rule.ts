import type { AuditEvent, LiveEventType } from '@garrison/core';

/**
 * Which of one feature's cached reads a live event makes out of date. Keys are
 * `<resource>:<server id>:<the rest>`: a rule names a prefix, for the event's server; `servers:`,
 * `nodes:` and `trail:` are read about no one server and are named as they are.
 */
export interface CacheRules {
  /** The prefixes of the feature's reads about one server: what a live connection that was down may have missed. */
  serverKeys: string[];
  /** Live events of the feature, in the order their reads are marked. */
  live?: LiveRule[];
  /** Audit entries (the live `event`) and the reads each makes out of date. */
  audit?: Partial<Record<AuditEvent['event_type'], string[]>>;
}

interface LiveRule {
  on: LiveEventType[];
  keys: string[];
  /**
   * Whether the components showing these reads apply the event themselves: then they are only marked,
   * not read again at once. Never, unless said.
   */
  appliedLive?: (type: LiveEventType, data: unknown) => boolean;
}

export const always = () => true;
/** A server's state change: its processes are patched from a process event, not from a server's. */
export const STATE_CHANGES: LiveEventType[] = ['server_status', 'process_status'];
export const fromProcessEvent = (type: LiveEventType) => type === 'process_status';
