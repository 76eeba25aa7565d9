import { connect as tcpConnect, type Socket } from 'node:net';
import { ApiError, type RemoteAdminTarget } from '@garrison/core';
import {
  encodePacket,
  PacketReader,
  RconProtocolError,
  SERVERDATA_AUTH,
  SERVERDATA_AUTH_RESPONSE,
  SERVERDATA_EXECCOMMAND,
  SERVERDATA_RESPONSE_VALUE,
  type Packet,
  type ReceivedPacket,
} from './codec.js';

export const rconError = (message: string, cause?: unknown) => new ApiError('RCON_ERROR', message, { cause });

/** The most an answer may gather: a server streaming without end is cut off rather than filling memory. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

type Waiter =
  | { kind: 'auth'; id: number; resolve(): void; reject(error: Error): void }
  | {
      kind: 'command';
      id: number;
      endId: number;
      parts: Buffer[];
      bytes: number;
      resolve(answer: string): void;
      reject(error: Error): void;
    };

/**
 * One authenticated TCP connection to a Source RCON server. It does one thing at a time (the client's
 * queue sees to it) and, once anything goes wrong with it (a drop, a time-out, bytes that are not the
 * protocol), it is dead for good: the client opens another.
 */
export class RconConnection {
  private readonly reader = new PacketReader();
  private waiter: Waiter | undefined;
  private failure: Error | undefined;
  private nextId = 1;

  private constructor(
    private readonly socket: Socket,
    private readonly where: string,
  ) {}

  /** Reads what the socket brings, from the moment `open` has made the connection. */
  private listen(): void {
    const { socket, where } = this;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (err) => {
      const what = this.waiter?.kind === 'auth' ? `cannot reach RCON at ${where}` : `the RCON connection to ${where} failed`;
      this.fail(rconError(`${what}: ${err.message}`, err));
    });
    socket.on('close', () => this.fail(rconError(`the RCON connection to ${where} was closed`)));
  }

  /** Connects and logs in within `timeoutMs`; rejects with `RCON_ERROR` on a refused password, no server or no answer. */
  static open(target: RemoteAdminTarget, timeoutMs: number): Promise<RconConnection> {
    const where = `${target.host}:${target.port}`;
    return new Promise<RconConnection>((resolve, reject) => {
      const socket = tcpConnect({ host: target.host, port: target.port });
      const connection = new RconConnection(socket, where);
      connection.listen();
      const timer = setTimeout(() => connection.fail(rconError(`no answer from RCON at ${where} within ${timeoutMs} ms`)), timeoutMs);
      const done = (error?: Error) => {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve(connection);
      };
      const id = connection.id();
      connection.waiter = { kind: 'auth', id, resolve: () => done(), reject: done };
      socket.once('connect', () => connection.send({ id, type: SERVERDATA_AUTH, body: target.password }));
    });
  }

  get dead(): boolean {
    return this.failure !== undefined;
  }

  /**
   * Sends a command and gathers its answer. The answer may come in several packets and nothing marks its
   * last one, so an empty RESPONSE_VALUE follows the command: the server answers packets in order and
   * mirrors that one, so its echo means the whole answer is in.
   */
  exchange(text: string, timeoutMs: number): Promise<string> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.waiter) return Promise.reject(rconError('the RCON connection is busy with another command'));
    const id = this.id();
    const endId = this.id();
    return new Promise<string>((resolve, reject) => {
      // The command's first word only, up to a quote or `;`: what follows may set a password.
      const label = JSON.stringify(
        text
          .trim()
          .split(/[\s;"]/)
          .find(Boolean) ?? '',
      );
      const timer = setTimeout(
        () => this.fail(rconError(`no whole answer to RCON command ${label} from ${this.where} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const settle = (error: Error | null, answer = '') => {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve(answer);
      };
      this.waiter = { kind: 'command', id, endId, parts: [], bytes: 0, resolve: (a) => settle(null, a), reject: (e) => settle(e) };
      this.send({ id, type: SERVERDATA_EXECCOMMAND, body: text });
      this.send({ id: endId, type: SERVERDATA_RESPONSE_VALUE, body: '' });
    });
  }

  /** Ends the connection: whoever waits on it is told `error`. */
  fail(error: Error): void {
    if (!this.failure) this.failure = error;
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.reject(this.failure);
    if (!this.socket.destroyed) this.socket.destroy();
  }

  /** Closes the connection and resolves once the socket is gone. */
  close(error: Error): Promise<void> {
    const closed = this.socket.closed ? Promise.resolve() : new Promise<void>((resolve) => this.socket.once('close', () => resolve()));
    this.fail(error);
    return closed;
  }

  /** Ids of one connection are positive and never repeat soon, so a late packet of an earlier command is told apart. */
  private id(): number {
    const id = this.nextId;
    this.nextId = id >= 0x7fff_ffff ? 1 : id + 1;
    return id;
  }

  private send(packet: Packet): void {
    if (this.failure) return;
    this.socket.write(encodePacket(packet));
  }

  private receive(chunk: Buffer): void {
    let packets: ReceivedPacket[];
    try {
      packets = this.reader.push(chunk);
    } catch (err) {
      if (!(err instanceof RconProtocolError)) throw err;
      this.fail(rconError(`${this.where} does not speak Source RCON: ${err.message}`, err));
      return;
    }
    for (const packet of packets) {
      if (this.failure) return;
      this.handle(packet);
    }
  }

  private handle(packet: ReceivedPacket): void {
    const waiter = this.waiter;
    if (!waiter) return; // late packets of a finished command (the mirror's trailing packet, for one)
    if (waiter.kind === 'auth') {
      // The server sends an empty RESPONSE_VALUE first; only the AUTH_RESPONSE decides.
      if (packet.type !== SERVERDATA_AUTH_RESPONSE) return;
      if (packet.id === -1) this.fail(rconError(`RCON at ${this.where} refused the login: wrong RCon password`));
      else if (packet.id === waiter.id) {
        this.waiter = undefined;
        waiter.resolve();
      }
      return;
    }
    if (packet.type !== SERVERDATA_RESPONSE_VALUE) return;
    if (packet.id === waiter.id) {
      waiter.bytes += packet.bytes.length;
      if (waiter.bytes > MAX_ANSWER_BYTES) {
        this.fail(rconError(`the answer from ${this.where} is longer than ${MAX_ANSWER_BYTES} bytes`));
        return;
      }
      waiter.parts.push(packet.bytes);
    } else if (packet.id === waiter.endId) {
      this.waiter = undefined;
      // Decoded whole: the server cuts its packets by bytes, sometimes inside a character.
      waiter.resolve(Buffer.concat(waiter.parts).toString('utf8'));
    }
  }
}
