import { wallClock } from '../jobs/clock.js';
import type { TableVersions } from './table-versions.js';

/** What a read is made of: the tables it reads, and any in-memory state with a version of its own. */
export interface ReadSources {
  tables: readonly string[];
  version?: () => number;
}

interface Entry<V> {
  value: V;
  stamp: number;
  version: number;
  expires: number;
}

/**
 * Results of hot reads, reused while nothing they were made of has changed. This process's writes are
 * seen at once through the table versions; the age limit bounds how long a write by another process on
 * the same database (another instance, a hand edit) can go unseen. Bounded: the oldest entry makes room.
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly versions: TableVersions,
    private readonly maxAgeMs = 1_000,
    private readonly maxEntries = 1_000,
  ) {}

  /** The kept result for this key, if it is still current. */
  get(key: string, sources: ReadSources): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (
      entry.expires > wallClock.now() &&
      entry.stamp === this.versions.stamp(sources.tables) &&
      entry.version === (sources.version?.() ?? 0)
    ) {
      return entry.value;
    }
    this.entries.delete(key);
    return undefined;
  }

  /**
   * Reads and keeps the result, unless something it was made of changed while it was read (a write
   * under way, or one that ended meanwhile). `until` (epoch ms) ends the entry earlier than the age limit.
   */
  async read(key: string, sources: ReadSources, make: () => Promise<V>, until = Infinity): Promise<V> {
    const stamp = this.versions.stamp(sources.tables);
    const version = sources.version?.() ?? 0;
    const value = await make();
    if (stamp !== null && stamp === this.versions.stamp(sources.tables) && version === (sources.version?.() ?? 0)) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { value, stamp, version, expires: Math.min(until, wallClock.now() + this.maxAgeMs) });
    }
    return value;
  }
}
