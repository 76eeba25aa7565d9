/**
 * How long a visit's `player.joined` waits for the game to report the player's GUID. The game says that a
 * player connected one line before it says the GUID (the adapter parses both lines), so a
 * webhook sent at the first line would always carry `guid: null`. A GUID that never comes (a game
 * without one, a player who never finishes joining) does not hold the webhook back longer than this.
 */
const GUID_WAIT_MS = 30_000;

interface Waiting {
  name: string;
  since: number;
}

/**
 * The `player.joined` webhooks of one server's visits that began without a GUID: sent once the GUID is
 * known (the game's GUID message or the next player poll), or with `guid: null` once GUID_WAIT_MS has
 * passed or the player left first. Each visit is announced exactly once.
 */
export class JoinAnnouncements {
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly announce: (name: string, guid: string | null) => void) {}

  /** A new visit: announced now when its GUID is known, otherwise held until it is. */
  began(key: string, name: string, guid: string | null, now: number): void {
    if (guid) this.announce(name, guid);
    else this.waiting.set(key, { name, since: now });
  }

  /** The game reported the GUID of a player on (a visit already announced is left alone). */
  guidKnown(key: string, guid: string): void {
    const visit = this.waiting.get(key);
    if (!visit) return;
    this.waiting.delete(key);
    this.announce(visit.name, guid);
  }

  /** The player left before the GUID came: the visit is still announced, before its end is. */
  ended(key: string): void {
    const visit = this.waiting.get(key);
    if (!visit) return;
    this.waiting.delete(key);
    this.announce(visit.name, null);
  }

  /** Visits that waited GUID_WAIT_MS for a GUID are announced without one. */
  overdue(now: number): void {
    for (const [key, visit] of this.waiting) {
      if (now - visit.since < GUID_WAIT_MS) continue;
      this.waiting.delete(key);
      this.announce(visit.name, null);
    }
  }

  /** The server is gone: nothing more is announced of it. */
  clear(): void {
    this.waiting.clear();
  }
}
