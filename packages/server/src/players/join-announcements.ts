import type { PlayerIdentity } from '@garrison/core';

/**
 * How long a visit's `player.joined` waits for the game to report the player's identity. A game may say
 * that a player connected one message before it says who he is (the adapter parses both), so a webhook
 * sent at the first message would always carry no identity. An identity that never comes (a game
 * without one, a player who never finishes joining) does not hold the webhook back longer than this.
 */
const IDENTITY_WAIT_MS = 30_000;

interface Waiting {
  name: string;
  since: number;
}

/**
 * The `player.joined` webhooks of one server's visits that began without an identity: sent once it is
 * known (the game's message or the next player poll), or without one once IDENTITY_WAIT_MS has passed or
 * the player left first. Each visit is announced exactly once.
 */
export class JoinAnnouncements {
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly announce: (name: string, id: PlayerIdentity | null) => void) {}

  /** A new visit: announced now when its identity is known, otherwise held until it is. */
  began(key: string, name: string, id: PlayerIdentity | null, now: number): void {
    if (id) this.announce(name, id);
    else this.waiting.set(key, { name, since: now });
  }

  /** The game reported the identity of a player on (a visit already announced is left alone). */
  identified(key: string, id: PlayerIdentity): void {
    const visit = this.waiting.get(key);
    if (!visit) return;
    this.waiting.delete(key);
    this.announce(visit.name, id);
  }

  /** The player left before his identity came: the visit is still announced, before its end is. */
  ended(key: string): void {
    const visit = this.waiting.get(key);
    if (!visit) return;
    this.waiting.delete(key);
    this.announce(visit.name, null);
  }

  /** Visits that waited IDENTITY_WAIT_MS for an identity are announced without one. */
  overdue(now: number): void {
    for (const [key, visit] of this.waiting) {
      if (now - visit.since < IDENTITY_WAIT_MS) continue;
      this.waiting.delete(key);
      this.announce(visit.name, null);
    }
  }

  /** The server is gone: nothing more is announced of it. */
  clear(): void {
    this.waiting.clear();
  }
}
