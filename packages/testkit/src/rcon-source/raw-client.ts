import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import {
  PacketReader,
  SERVERDATA_AUTH,
  SERVERDATA_EXECCOMMAND,
  SERVERDATA_RESPONSE_VALUE,
  encodePacket,
  type SourcePacket,
} from './codec.js';
import { MAX_REPLY_BODY } from './codec.js';

/**
 * A bare Source RCON connection for tests: sends any packet, and keeps every packet received, in order,
 * so that a test sees the wire as it is (the empty RESPONSE_VALUE before an AUTH_RESPONSE, the split
 * answer, the mirror trailer). Not a client to build on: no queue, no reconnection.
 */
export class RawSourceConnection {
  readonly packets: SourcePacket[] = [];
  private readonly reader = new PacketReader(MAX_REPLY_BODY + 10);
  private waiters: (() => void)[] = [];

  private constructor(
    private readonly socket: Socket,
    /** Settles when the socket closes: `open` ties it to the socket's `close`. */
    readonly closed: Promise<void>,
  ) {}

  static async open(host: string, port: number): Promise<RawSourceConnection> {
    const socket = connect({ host, port });
    await once(socket, 'connect');
    const connection = new RawSourceConnection(socket, new Promise((resolve) => socket.once('close', () => resolve())));
    connection.listen();
    return connection;
  }

  private listen(): void {
    this.socket.on('data', (chunk: Buffer) => {
      this.packets.push(...this.reader.push(chunk));
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.socket.on('error', () => {});
    void this.closed.then(() => this.waiters.splice(0).forEach((wake) => wake()));
  }

  get isClosed(): boolean {
    return this.socket.destroyed || this.socket.readableEnded;
  }

  send(id: number, type: number, body: string | Buffer = ''): void {
    this.socket.write(encodePacket(id, type, body));
  }

  /** Writes bytes as they are (a broken or oversized packet). */
  sendRaw(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  /** Resolves once `count` packets in all have arrived; rejects when the connection closes first or after `timeoutMs`. */
  async waitForPackets(count: number, timeoutMs = 5000): Promise<SourcePacket[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.packets.length < count) {
      if (this.socket.destroyed) throw new Error(`connection closed after ${this.packets.length} of ${count} packets`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out after ${timeoutMs} ms with ${this.packets.length} of ${count} packets`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
    return this.packets.slice(0, count);
  }

  /** Logs in: true when the AUTH_RESPONSE carries the id sent, false when it carries −1. */
  async auth(password: string, id = 1): Promise<boolean> {
    const before = this.packets.length;
    this.send(id, SERVERDATA_AUTH, password);
    const got = await this.waitForPackets(before + 2);
    return got[before + 1].id === id;
  }

  /**
   * Runs a command and gathers its answer the way the wiki advises: an empty RESPONSE_VALUE follows the
   * command, and the answer is every packet with the command's id before that one's echo; the mirror
   * trailer after the echo is read too, so that the next command starts clean.
   */
  async command(text: string, id = 100, timeoutMs = 5000): Promise<{ body: string; packets: SourcePacket[] }> {
    const start = this.packets.length;
    const marker = id + 1;
    this.send(id, SERVERDATA_EXECCOMMAND, text);
    this.send(marker, SERVERDATA_RESPONSE_VALUE);
    const deadline = Date.now() + timeoutMs;
    for (let n = start + 1; ; n += 1) {
      const got = await this.waitForPackets(n, Math.max(1, deadline - Date.now()));
      if (got[n - 1].id === marker) {
        await this.waitForPackets(n + 1, Math.max(1, deadline - Date.now())); // the trailer
        const packets = this.packets.slice(start, n - 1);
        return { body: Buffer.concat(packets.map((p) => p.raw)).toString('utf8'), packets };
      }
    }
  }

  async close(): Promise<void> {
    this.socket.destroy();
    await this.closed;
  }
}
