import type { Logger } from 'pino';

/**
 * How many WebSockets each holder has open (a user's sessions together, each API key apart), against a
 * cap (0: none). A holder at the cap is warned of once, until one of its sockets closes.
 */
export class WebSocketCap {
  private readonly held = new Map<string, number>();
  private readonly warned = new Set<string>();

  constructor(
    private readonly cap: number,
    private readonly logger: Logger,
  ) {}

  /** Takes a place for `holder`; the reason to close with (1008) when it has none left. */
  take(holder: string): string | null {
    const holding = this.held.get(holder) ?? 0;
    if (this.cap > 0 && holding >= this.cap) {
      if (!this.warned.has(holder))
        this.logger.warn({ holder, cap: this.cap }, 'WebSockets refused: this user or key has the most it may have open');
      this.warned.add(holder);
      return `too many WebSockets for this ${holder.startsWith('key:') ? 'API key' : 'user'}: at most ${this.cap} at once`;
    }
    this.held.set(holder, holding + 1);
    return null;
  }

  release(holder: string): void {
    const left = (this.held.get(holder) ?? 1) - 1;
    if (left > 0) this.held.set(holder, left);
    else this.held.delete(holder);
    this.warned.delete(holder);
  }
}
