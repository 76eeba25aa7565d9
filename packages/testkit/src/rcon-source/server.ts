import { createServer, type Server, type Socket } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import {
  MAX_REPLY_BODY,
  MAX_REQUEST_SIZE,
  MIRROR_TRAILER_BODY,
  PacketReader,
  PacketSizeError,
  SERVERDATA_AUTH,
  SERVERDATA_AUTH_RESPONSE,
  SERVERDATA_EXECCOMMAND,
  SERVERDATA_RESPONSE_VALUE,
  encodePacket,
  encodeReply,
  type SourcePacket,
} from './codec.js';

export interface SourceRconContext {
  /** `address:port` of the client that sent the command. */
  from: string;
}

/** Runs a command; the answer goes back split into packets of at most `maxBody` bytes. */
export type SourceCommandHandler = (command: string, ctx: SourceRconContext) => string | Promise<string>;

export interface SourceRconServerOptions {
  password: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  handler: SourceCommandHandler;
  /** Largest body per answer packet (srcds: 4096). */
  maxBody?: number;
  /** Largest `size` accepted from a client before the connection is closed (srcds: 4096). */
  maxRequestSize?: number;
  /**
   * A pause between two packets on a connection (default 0: back to back, so that two may share one TCP
   * read, as they do from real srcds). Only for clients that take one socket read for one packet, which
   * a real server breaks now and then (rcon-srcds: github.com/EnriqCG/rcon-srcds/issues/9).
   */
  packetGapMs?: number;
  /** Called on every login attempt (the game logs `rcon from "…": Bad Password`). */
  onAuth?: (ok: boolean, from: string) => void;
}

interface Connection {
  socket: Socket;
  from: string;
  authed: boolean;
  reader: PacketReader;
  /** Packets are handled one after the other, so answers leave in the order the requests came, as srcds does. */
  queue: Promise<void>;
  lastWriteAt: number;
}

/**
 * A Source RCON server on real TCP: auth (the empty RESPONSE_VALUE, then AUTH_RESPONSE with the id, or −1
 * on a wrong password), commands answered in packets of at most 4096 body bytes, the mirror of a
 * client's RESPONSE_VALUE (an empty RESPONSE_VALUE with its id, then one whose body is 00 01 00 00), and
 * a connection that sends a command before logging in, or a packet of an impossible size, is closed.
 */
export class SourceRconServer {
  /** Every packet received, in order, per connection address (for tests: what a client really sent). */
  readonly received: { from: string; packet: SourcePacket }[] = [];
  private readonly server: Server;
  private readonly connections = new Set<Connection>();
  private password: string;
  private closed = false;

  private constructor(private readonly options: SourceRconServerOptions) {
    this.password = options.password;
    this.server = createServer((socket) => this.accept(socket));
  }

  static async start(options: SourceRconServerOptions): Promise<SourceRconServer> {
    const server = new SourceRconServer(options);
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
        server.server.off('error', reject);
        resolve();
      });
    });
    return server;
  }

  get port(): number {
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  /** Logged-in connections. */
  get authenticated(): number {
    return [...this.connections].filter((c) => c.authed).length;
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** A new `rcon_password`: later logins need it; connections already logged in stay. */
  setPassword(password: string): void {
    this.password = password;
  }

  /** Closes every client connection (the server keeps listening): a network cut, for reconnection tests. */
  dropConnections(): void {
    for (const c of this.connections) c.socket.destroy();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const done = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.dropConnections();
    await done;
  }

  private accept(socket: Socket): void {
    if (this.closed) return void socket.destroy();
    const conn: Connection = {
      socket,
      from: `${socket.remoteAddress?.replace(/^::ffff:/, '')}:${socket.remotePort}`,
      authed: false,
      reader: new PacketReader(this.options.maxRequestSize ?? MAX_REQUEST_SIZE),
      queue: Promise.resolve(),
      lastWriteAt: 0,
    };
    this.connections.add(conn);
    socket.setNoDelay(true);
    socket.on('error', () => {}); // a client that vanishes is just gone
    socket.on('close', () => this.connections.delete(conn));
    socket.on('data', (chunk: Buffer) => {
      let packets: SourcePacket[];
      try {
        packets = conn.reader.push(chunk);
      } catch (err) {
        if (!(err instanceof PacketSizeError)) throw err;
        return void socket.destroy(); // unframeable: srcds drops the connection
      }
      for (const packet of packets) conn.queue = conn.queue.then(() => this.handle(conn, packet));
    });
  }

  /** One write per packet, each handed to the kernel before the next (and `packetGapMs` apart when set). */
  private async send(conn: Connection, packets: Buffer[]): Promise<void> {
    const gap = this.options.packetGapMs ?? 0;
    for (const packet of packets) {
      const wait = conn.lastWriteAt + gap - Date.now();
      if (gap > 0 && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (conn.socket.destroyed) return;
      await new Promise<void>((resolve) => conn.socket.write(packet, () => resolve()));
      conn.lastWriteAt = Date.now();
    }
  }

  private async handle(conn: Connection, packet: SourcePacket): Promise<void> {
    if (conn.socket.destroyed) return;
    this.received.push({ from: conn.from, packet });
    if (this.received.length > 10_000) this.received.splice(0, 5_000);
    switch (packet.type) {
      case SERVERDATA_AUTH:
        return this.auth(conn, packet);
      case SERVERDATA_EXECCOMMAND:
        if (!conn.authed) {
          // Not logged in: the failure answer of the original RCON spec, then the connection is closed.
          await this.send(conn, [encodePacket(-1, SERVERDATA_AUTH_RESPONSE)]);
          conn.socket.end();
          return;
        }
        return this.execute(conn, packet);
      case SERVERDATA_RESPONSE_VALUE:
        if (!conn.authed) return void conn.socket.end();
        // srcds echoes the request it does not know as empty, then sends the odd trailer: clients that
        // send an empty RESPONSE_VALUE after a command use the echo as the end of a split answer.
        return this.send(conn, [
          encodePacket(packet.id, SERVERDATA_RESPONSE_VALUE),
          encodePacket(packet.id, SERVERDATA_RESPONSE_VALUE, MIRROR_TRAILER_BODY),
        ]);
      default:
        return void conn.socket.end(); // no other request type exists
    }
  }

  private auth(conn: Connection, packet: SourcePacket): Promise<void> {
    const expected = Buffer.from(this.password);
    const given = Buffer.from(packet.body);
    const ok = this.password !== '' && given.length === expected.length && timingSafeEqual(given, expected);
    conn.authed = ok;
    this.options.onAuth?.(ok, conn.from);
    return this.send(conn, [
      encodePacket(packet.id, SERVERDATA_RESPONSE_VALUE),
      encodePacket(ok ? packet.id : -1, SERVERDATA_AUTH_RESPONSE),
    ]);
  }

  private async execute(conn: Connection, packet: SourcePacket): Promise<void> {
    let answer: string;
    try {
      answer = await this.options.handler(packet.body, { from: conn.from });
    } catch (err) {
      answer = `${(err as Error).message}\n`;
    }
    await this.send(conn, encodeReply(packet.id, answer, this.options.maxBody ?? MAX_REPLY_BODY));
  }
}
