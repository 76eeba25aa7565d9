import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A Source RCON server for the client's tests, written from the protocol's bytes (not from the
 * adapter's codec), behaving as srcds does: an empty RESPONSE_VALUE before the AUTH_RESPONSE, id -1 for a
 * wrong password, long answers in 4096-byte packets, the empty RESPONSE_VALUE mirrored (followed by the
 * odd `00 01 00 00` packet srcds sends after it).
 */

/** `size | id | type | body | 00 | 00`, little-endian, by hand. */
export function rawPacket(id: number, type: number, body: Buffer | string): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const header = Buffer.alloc(12);
  header.writeInt32LE(bytes.length + 10, 0);
  header.writeInt32LE(id, 4);
  header.writeInt32LE(type, 8);
  return Buffer.concat([header, bytes, Buffer.from([0, 0])]);
}

/** What `answer` returns to have the server close the connection instead of answering. */
export const DROP = Symbol('drop');

export interface Received {
  id: number;
  type: number;
  body: string;
}

export interface FakeOptions {
  password: string;
  /** The answer to a command; `null` answers nothing (a server that hangs); DROP closes the connection. */
  answer?: (command: string) => string | null | typeof DROP;
  /** How the bytes of one reply go out: each chunk written on its own (to split packets over TCP reads). */
  chunk?: (bytes: Buffer) => Buffer[];
}

export class FakeSourceServer {
  readonly received: Received[] = [];
  connections = 0;
  private readonly sockets = new Set<Socket>();
  private constructor(
    private readonly server: Server,
    readonly options: FakeOptions,
  ) {}

  static async start(options: FakeOptions): Promise<FakeSourceServer> {
    const server = createServer();
    const fake = new FakeSourceServer(server, options);
    server.on('connection', (socket) => fake.serve(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get openConnections(): number {
    return this.sockets.size;
  }

  /** Drops every open connection, as a game that crashed or restarted. */
  dropAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  async stop(): Promise<void> {
    this.dropAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private serve(socket: Socket): void {
    this.connections += 1;
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => {});
    let buffered = Buffer.alloc(0);
    let authed = false;
    // A command left unanswered: its end marker is not mirrored either, as by a server that hangs.
    let hung = false;
    const write = (bytes: Buffer) => {
      for (const part of this.options.chunk?.(bytes) ?? [bytes]) socket.write(part);
    };
    socket.on('data', (data: Buffer) => {
      buffered = Buffer.concat([buffered, data]);
      while (buffered.length >= 4 && buffered.length >= 4 + buffered.readInt32LE(0)) {
        const size = buffered.readInt32LE(0);
        const packet = { id: buffered.readInt32LE(4), type: buffered.readInt32LE(8), body: buffered.subarray(12, 4 + size - 2).toString() };
        buffered = buffered.subarray(4 + size);
        this.received.push(packet);
        if (packet.type === 3) {
          authed = packet.body === this.options.password;
          write(Buffer.concat([rawPacket(packet.id, 0, ''), rawPacket(authed ? packet.id : -1, 2, '')]));
        } else if (!authed) {
          socket.destroy();
        } else if (packet.type === 2) {
          const answer = this.options.answer ? this.options.answer(packet.body) : `ran ${packet.body}`;
          if (answer === DROP) return void socket.destroy();
          if (answer === null) {
            hung = true;
            continue;
          }
          const bytes = Buffer.from(answer, 'utf8');
          const parts: Buffer[] = [];
          for (let at = 0; at < bytes.length; at += 4096) parts.push(rawPacket(packet.id, 0, bytes.subarray(at, at + 4096)));
          write(Buffer.concat(parts.length ? parts : [rawPacket(packet.id, 0, '')]));
        } else if (packet.type === 0 && !hung) {
          write(Buffer.concat([rawPacket(packet.id, 0, ''), rawPacket(packet.id, 0, Buffer.from([0, 1, 0, 0]))]));
        }
      }
    });
  }
}
