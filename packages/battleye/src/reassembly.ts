/** Collects the parts of multi-part answers by index, whatever order they arrive in. */
export class PartCollector {
  private total = 0;
  private readonly parts = new Map<number, Buffer>();

  /** Adds a part; returns the whole body once every part is in, else null. Inconsistent parts restart the collection. */
  add(part: { total: number; index: number }, body: Buffer): Buffer | null {
    if (this.total !== part.total) {
      this.total = part.total;
      this.parts.clear();
    }
    if (!this.parts.has(part.index)) this.parts.set(part.index, body);
    if (this.parts.size < this.total) return null;
    return Buffer.concat(Array.from({ length: this.total }, (_, i) => this.parts.get(i)!));
  }
}

/** Remembers the last few sequence numbers seen, so a retransmitted server message is handled once. */
export class RecentSequences {
  private readonly seen: number[] = [];
  constructor(private readonly size = 16) {}

  /** True the first time a sequence number shows up within the window. */
  firstTime(seq: number): boolean {
    if (this.seen.includes(seq)) return false;
    this.seen.push(seq);
    if (this.seen.length > this.size) this.seen.shift();
    return true;
  }
}
