import { createSocket, type Socket } from 'node:dgram';
import { isIPv6 } from 'node:net';
import { ApiError, ifApiError, type RemoteAdminSession, type RemoteAdminTarget } from '@garrison/core';
import { decodeServerPacket, encodeCommand, encodeLogin, encodeMessageAck, nextSequence, type ServerPacket } from './protocol.js';
import { PartCollector, RecentSequences } from './reassembly.js';

export interface BattlEyeClientOptions extends RemoteAdminTarget {
  /** A command fails after this long without its whole answer, all resends included. */
  timeoutMs?: number;
  /** An unanswered command or login is sent again this often (UDP loses datagrams). */
  resendMs?: number;
  /** When no command went out for this long, an empty one keeps the login alive; BattlEye drops clients after 45 s. */
  keepAliveMs?: number;
  /** The first login gives up after this long. */
  loginTimeoutMs?: number;
}

interface Pending {
  resolve(answer: string): void;
  reject(error: Error): void;
  collector: PartCollector;
}

/** Most commands one client keeps unanswered at once; sequence numbers are one byte. */
const MAX_IN_FLIGHT = 128;

const rconError = (message: string, cause?: unknown) => new ApiError('RCON_ERROR', message, { cause });

/**
 * A BattlEye RCon client. Commands are resent until answered and time out rather than hang; answers
 * split over several datagrams are reassembled by index; server messages are acknowledged and
 * delivered once; an idle login is kept alive. A server that restarted forgets our login and
 * ignores our commands, so an unanswered command also re-sends the login: the next attempt then
 * lands on the new session, with the same sequence number, so it runs once.
 */
export class BattlEyeClient implements RemoteAdminSession {
  private readonly socket: Socket;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(message: string) => void>();
  private readonly recentMessages = new RecentSequences();
  private readonly options: Required<BattlEyeClientOptions>;
  private seq = 0;
  private lastCommandAt = 0;
  private keepAlive: NodeJS.Timeout | undefined;
  private loginWaiter: { resolve(): void; reject(e: Error): void } | undefined;
  private closed = false;

  private constructor(options: BattlEyeClientOptions) {
    this.options = { timeoutMs: 5000, resendMs: 1000, keepAliveMs: 30_000, loginTimeoutMs: 3000, ...options };
    if (this.options.keepAliveMs >= 45_000) throw new RangeError("keepAliveMs must stay under BattlEye's 45 s idle limit");
    this.socket = createSocket(isIPv6(options.host) ? 'udp6' : 'udp4');
  }

  /** Connects and logs in; rejects with `RCON_ERROR` on a refused password or no answer. */
  static async connect(options: BattlEyeClientOptions): Promise<BattlEyeClient> {
    const client = new BattlEyeClient(options);
    client.socket.on('message', (data) => client.receive(data));
    // ICMP "port unreachable" while the server is down surfaces here; the resend loop deals with it.
    client.socket.on('error', () => {});
    try {
      await new Promise<void>((resolve, reject) => {
        client.socket.once('error', reject);
        client.socket.connect(options.port, options.host, () => {
          client.socket.off('error', reject);
          resolve();
        });
      });
      await client.login();
    } catch (err) {
      await client.close();
      throw err instanceof ApiError
        ? err
        : rconError(`cannot reach BattlEye RCon at ${options.host}:${options.port}: ${(err as Error).message}`, err);
    }
    client.keepAlive = setInterval(() => client.keepAliveTick(), Math.max(50, Math.floor(client.options.keepAliveMs / 3)));
    client.keepAlive.unref();
    return client;
  }

  private send(packet: Buffer): void {
    if (this.closed) return;
    this.socket.send(packet, (err) => {
      // A send error (e.g. the server's port is closed) is one more lost datagram: resends cover it.
      void err;
    });
  }

  private login(): Promise<void> {
    const { loginTimeoutMs, resendMs, host, port } = this.options;
    return new Promise<void>((resolve, reject) => {
      const packet = encodeLogin(this.options.password);
      const resend = setInterval(() => this.send(packet), resendMs);
      const timer = setTimeout(
        () => finish(rconError(`no answer from BattlEye RCon at ${host}:${port} (is RCon enabled?)`)),
        loginTimeoutMs,
      );
      const finish = (error?: Error) => {
        clearInterval(resend);
        clearTimeout(timer);
        this.loginWaiter = undefined;
        if (error) reject(error);
        else resolve();
      };
      this.loginWaiter = { resolve: () => finish(), reject: finish };
      this.send(packet);
    });
  }

  /** Runs a command and resolves with its whole answer (an empty string for commands that answer nothing). */
  command(text: string): Promise<string> {
    if (this.closed) return Promise.reject(rconError('the RCon connection is closed'));
    if (this.pending.size >= MAX_IN_FLIGHT) return Promise.reject(rconError('too many RCon commands waiting for an answer'));
    while (this.pending.has(this.seq)) this.seq = nextSequence(this.seq);
    const seq = this.seq;
    this.seq = nextSequence(seq);
    const packet = encodeCommand(seq, text);
    const login = encodeLogin(this.options.password);
    this.lastCommandAt = Date.now();

    return new Promise<string>((resolve, reject) => {
      let resends = 0;
      const resend = setInterval(() => {
        resends += 1;
        // Two resends unanswered: perhaps the server restarted and forgot us, so log in again first.
        if (resends >= 2) this.send(login);
        this.send(packet);
      }, this.options.resendMs);
      const timer = setTimeout(
        () => done(rconError(`no answer to RCon command ${JSON.stringify(text.split(' ')[0])} within ${this.options.timeoutMs} ms`)),
        this.options.timeoutMs,
      );
      const done = (error: Error | null, answer = '') => {
        clearInterval(resend);
        clearTimeout(timer);
        this.pending.delete(seq);
        if (error) reject(error);
        else resolve(answer);
      };
      this.pending.set(seq, { resolve: (answer) => done(null, answer), reject: (e) => done(e), collector: new PartCollector() });
      this.send(packet);
    });
  }

  onMessage(listener: (message: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.keepAlive);
    for (const p of [...this.pending.values()]) p.reject(rconError('the RCon connection was closed'));
    this.loginWaiter?.reject(rconError('the RCon connection was closed'));
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }

  private keepAliveTick(): void {
    if (Date.now() - this.lastCommandAt < this.options.keepAliveMs) return;
    // Failures are not reported: the next command or keep-alive logs in again.
    this.command('').catch(ifApiError('RCON_ERROR', ''));
  }

  private receive(data: Buffer): void {
    const packet: ServerPacket | null = decodeServerPacket(data);
    if (!packet) return;
    switch (packet.type) {
      case 'login-result':
        if (packet.ok) this.loginWaiter?.resolve();
        else {
          const error = rconError('BattlEye RCon refused the login: wrong RCon password');
          this.loginWaiter?.reject(error);
          for (const p of [...this.pending.values()]) p.reject(error);
        }
        return;
      case 'message':
        // Every copy is acknowledged, or the server keeps resending and finally drops us.
        this.send(encodeMessageAck(packet.seq));
        if (this.recentMessages.firstTime(packet.seq)) for (const listener of this.listeners) listener(packet.message);
        return;
      case 'reply': {
        const pending = this.pending.get(packet.seq);
        if (!pending) return;
        const body = packet.part ? pending.collector.add(packet.part, packet.body) : packet.body;
        if (body) pending.resolve(body.toString('utf8'));
        return;
      }
    }
  }
}
