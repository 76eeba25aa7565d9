import { createHash } from 'node:crypto';

/** The `prev_hash` of the first entry ever written: no entry came before it. */
export const GENESIS_HASH = '0'.repeat(64);

/** An entry as stored, the fields its hash covers (`detail` as the JSON text stored). */
export interface ChainedFields {
  id: number;
  server_id: number | null;
  event_type: string;
  actor: string | null;
  actor_kind: string;
  actor_id: string | null;
  target_kind: string;
  target_id: string | null;
  target_name: string | null;
  detail: string;
  timestamp: string;
  prev_hash: string;
}

/**
 * The canonical form of an entry: its fields in a fixed order, as a JSON array, after a version tag. The
 * stored `detail` text is taken as it is (not re-serialized), so that any edit of it shows. Changing this
 * form breaks every chain written before: a new form needs a new tag and verification of both.
 */
function canonicalForm(entry: ChainedFields): string {
  const fields = [
    entry.id,
    entry.server_id,
    entry.event_type,
    entry.actor,
    entry.actor_kind,
    entry.actor_id,
    entry.target_kind,
    entry.target_id,
    entry.target_name,
    entry.detail,
    entry.timestamp,
    entry.prev_hash,
  ];
  return `garrison-audit-v1\n${JSON.stringify(fields)}`;
}

export const hashOf = (entry: ChainedFields): string => createHash('sha256').update(canonicalForm(entry)).digest('hex');

/** Where the chain stands: the last entry written, and the last one pruned (whose hash the first kept entry follows). */
export interface ChainHead {
  last_id: number;
  last_hash: string;
  anchor_id: number;
  anchor_hash: string;
}

/** The first link found broken, with why; null for a whole chain. */
export interface BrokenLink {
  /** The entry at which the chain breaks (null: after the last entry, the head disagrees). */
  id: number | null;
  reason: string;
}

/**
 * Checks entries given in id order against the head: each follows the one before it (the anchor for the
 * first), each hash is its own, and the last is the head's. A changed entry fails its own hash, a removed
 * one the `prev_hash` of the next (or the head), an inserted one its `prev_hash` or the next one's.
 */
export class ChainVerifier {
  private expectedPrev: string;
  private lastId: number;
  checked = 0;
  broken: BrokenLink | null = null;

  constructor(private readonly head: ChainHead) {
    this.expectedPrev = head.anchor_hash;
    this.lastId = head.anchor_id;
  }

  /** False once a link is broken: the rest need not be read. */
  next(entry: ChainedFields & { hash: string }): boolean {
    if (this.broken) return false;
    if (entry.id <= this.lastId) return this.fail(entry.id, `id ${entry.id} is not after ${this.lastId}`);
    if (entry.prev_hash !== this.expectedPrev) {
      return this.fail(
        entry.id,
        `prev_hash ${entry.prev_hash.slice(0, 12)}… is not the hash of the entry before it (${this.expectedPrev.slice(0, 12)}…): ` +
          'an entry before it was removed, changed or inserted',
      );
    }
    if (hashOf(entry) !== entry.hash) return this.fail(entry.id, 'its hash does not match its fields: the entry was changed');
    this.expectedPrev = entry.hash;
    this.lastId = entry.id;
    this.checked++;
    return true;
  }

  /** After the last entry: the head must name it. */
  finish(): BrokenLink | null {
    if (this.broken) return this.broken;
    if (this.head.last_id !== this.lastId || this.head.last_hash !== this.expectedPrev) {
      this.fail(
        null,
        `the chain ends at entry ${this.lastId}, but the head says ${this.head.last_id}: entries at the end were removed or added`,
      );
    }
    return this.broken;
  }

  private fail(id: number | null, reason: string): false {
    this.broken = { id, reason };
    return false;
  }
}
