import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { isIP } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { decodeClientPacket, encodeLoginResult, encodeMessage, encodeReplyParts, nextSequence } from '@garrison/battleye';
import { adminsText, bansText, messages, missionsText, playersText, type FakeBan, type FakePlayer } from './formats.js';

/** Switches a test flips to make the network or the server misbehave; they apply from the next datagram on. */
export interface RconFaults {
  /**
   * Drop every Nth datagram, counted in each direction separately; 0 drops none. The pattern is
   * regular: when N divides the datagrams of one exchange (say, one command answered in 5 parts with
   * N = 5), the same datagram is lost on every resend, as no real network would do it.
   */
  dropEveryNth: number;
  /** Hold every answer (login results and command answers) this long. */
  delayMs: number;
  /** Answer every login with "failed", whatever the password. */
  refuseLogins: boolean;
  /** Send the parts of a multi-part answer last part first, as UDP may deliver them. */
  reverseParts: boolean;
  /** Answer nothing at all, as BattlEye before the game has finished starting. */
  silent: boolean;
}

export interface FakeRconServerOptions {
  password: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Largest answer body per datagram before it is split into parts (the real size is not published; ~1 KB). */
  chunkSize?: number;
  /** Server messages are resent this often until acknowledged… */
  messageRetryMs?: number;
  /** …this many times in all, then the client is dropped (BattlEye: 5 tries in 10 s). */
  messageAttempts?: number;
  /** A logged-in client that sends no command for this long is dropped (BattlEye: 45 s). */
  idleTimeoutMs?: number;
  faults?: Partial<RconFaults>;
}

export interface CommandContext {
  server: FakeRconServer;
  /** The RCon admin number of the caller. */
  adminId: number;
}

/** Answers a command; `args` is everything after the command word. */
export type CommandHandler = (args: string, ctx: CommandContext) => string | Promise<string>;

interface Peer {
  address: string;
  rinfo: RemoteInfo;
  adminId: number;
  loggedIn: boolean;
  lastCommandAt: number;
  nextMessageSeq: number;
  unacked: Map<number, NodeJS.Timeout>;
  /** Answers by sequence number, so that a resent command is answered again but runs once. */
  answers: Map<number, Promise<Buffer[]>>;
}

const ANSWER_CACHE = 32;

/**
 * A BattlEye RCon server on real UDP, faithful on the wire: checksums, login, sequence numbers,
 * multi-part answers, acknowledged server messages, keep-alive and idle drop. It keeps a player list,
 * a ban list and missions, and answers `players`, `bans`, `admins`, `missions`, `kick`, `ban`,
 * `addBan`, `removeBan`, `say`, `loadBans` and `writeBans` as the real server formats them. Tests may
 * add or override commands with `handle()`.
 */
export class FakeRconServer {
  readonly faults: RconFaults;
  readonly players: FakePlayer[] = [];
  readonly bans: FakeBan[] = [];
  missions: string[] = [];
  /** Called after `ban`, `addBan`, `removeBan` and `writeBans` changed the ban list (the game saves it to bans.txt here). */
  onBansChanged: ((bans: FakeBan[]) => void) | null = null;
  /** Every command received from a logged-in client, in order (keep-alives and resends excluded). */
  readonly commands: string[] = [];
  /** Empty commands received from logged-in clients. */
  keepAlives = 0;
  private readonly handlers = new Map<string, CommandHandler>();
  private readonly peers = new Map<string, Peer>();
  private readonly options: Required<Omit<FakeRconServerOptions, 'faults'>>;
  private socket!: Socket;
  private readonly datagrams = { in: 0, out: 0 };
  private nextAdminId = 0;
  private nextSlot = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(options: FakeRconServerOptions) {
    this.options = {
      host: '127.0.0.1',
      port: 0,
      chunkSize: 1024,
      messageRetryMs: 2000,
      messageAttempts: 5,
      idleTimeoutMs: 45_000,
      ...options,
    };
    this.faults = { dropEveryNth: 0, delayMs: 0, refuseLogins: false, reverseParts: false, silent: false, ...options.faults };
    this.installStandardCommands();
  }

  static async start(options: FakeRconServerOptions): Promise<FakeRconServer> {
    const server = new FakeRconServer(options);
    await server.listen();
    return server;
  }

  get host(): string {
    return this.options.host;
  }

  get port(): number {
    return this.socket.address().port;
  }

  /** Adds or replaces the handler of a command word (case-insensitive, like BattlEye's). */
  handle(command: string, handler: CommandHandler): this {
    this.handlers.set(command.toLowerCase(), handler);
    return this;
  }

  /** Pushes a server message to every logged-in client, resending until each acknowledges it. */
  broadcast(message: string): void {
    for (const peer of this.peers.values()) if (peer.loggedIn) this.pushMessage(peer, message);
  }

  /** A player joins: the connect, GUID and verification messages go out as on a real server. */
  join(name: string, guid: string, ip = '127.0.0.1', options: { ping?: number; port?: number } = {}): FakePlayer {
    const player: FakePlayer = {
      slot: this.nextSlot++,
      name,
      guid,
      ip,
      port: options.port ?? 2304,
      ping: options.ping ?? 30,
      verified: true,
      lobby: false,
    };
    this.players.push(player);
    this.broadcast(messages.connected(player));
    this.broadcast(messages.guid(player));
    this.broadcast(messages.verified(player));
    return player;
  }

  leave(slot: number): FakePlayer | undefined {
    const player = this.removePlayer(slot);
    if (player) this.broadcast(messages.disconnected(player));
    return player;
  }

  get connectedAdmins(): { id: number; address: string }[] {
    return [...this.peers.values()].filter((p) => p.loggedIn).map((p) => ({ id: p.adminId, address: p.address }));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.idleTimer);
    for (const peer of this.peers.values()) for (const timer of peer.unacked.values()) clearTimeout(timer);
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }

  // --- transport ----------------------------------------------------------------------------

  private async listen(): Promise<void> {
    this.socket = createSocket(isIP(this.options.host) === 6 ? 'udp6' : 'udp4');
    this.socket.on('message', (data, rinfo) => this.receive(data, rinfo));
    this.socket.on('error', () => {});
    await new Promise<void>((resolve, reject) => {
      this.socket.once('error', reject);
      this.socket.bind(this.options.port, this.options.host, () => {
        this.socket.off('error', reject);
        resolve();
      });
    });
    this.idleTimer = setInterval(() => this.dropIdle(), Math.min(1000, Math.max(20, this.options.idleTimeoutMs / 4)));
    this.idleTimer.unref();
  }

  /** Counts a datagram against the drop fault; true when it is to be lost. */
  private lost(direction: 'in' | 'out'): boolean {
    const count = (this.datagrams[direction] += 1);
    const n = this.faults.dropEveryNth;
    return n > 0 && count % n === 0;
  }

  private sendTo(peer: Peer, packet: Buffer): void {
    if (this.closed || this.lost('out')) return;
    this.socket.send(packet, peer.rinfo.port, peer.rinfo.address, () => {});
  }

  private answer(peer: Peer, packets: Buffer[]): void {
    const ordered = this.faults.reverseParts ? [...packets].reverse() : packets;
    const send = () => ordered.forEach((p) => this.sendTo(peer, p));
    if (this.faults.delayMs > 0) setTimeout(send, this.faults.delayMs);
    else send();
  }

  private peerFor(rinfo: RemoteInfo): Peer {
    const address = `${rinfo.address}:${rinfo.port}`;
    let peer = this.peers.get(address);
    if (!peer) {
      peer = {
        address,
        rinfo,
        adminId: -1,
        loggedIn: false,
        lastCommandAt: Date.now(),
        nextMessageSeq: 0,
        unacked: new Map(),
        answers: new Map(),
      };
      this.peers.set(address, peer);
    }
    return peer;
  }

  private receive(data: Buffer, rinfo: RemoteInfo): void {
    if (this.closed || this.faults.silent || this.lost('in')) return;
    const packet = decodeClientPacket(data);
    if (!packet) return; // the real server answers nothing to garbage
    const peer = this.peerFor(rinfo);
    switch (packet.type) {
      case 'login':
        return this.login(peer, packet.password);
      case 'message-ack': {
        const timer = peer.unacked.get(packet.seq);
        clearTimeout(timer);
        peer.unacked.delete(packet.seq);
        return;
      }
      case 'command':
        // Commands from a client that is not logged in are ignored, as BattlEye does.
        if (!peer.loggedIn) return;
        peer.lastCommandAt = Date.now();
        return this.command(peer, packet.seq, packet.command);
    }
  }

  private login(peer: Peer, password: string): void {
    const expected = Buffer.from(this.options.password);
    const given = Buffer.from(password);
    const ok = !this.faults.refuseLogins && given.length === expected.length && timingSafeEqual(given, expected);
    this.answer(peer, [encodeLoginResult(ok)]);
    if (!ok) return;
    const first = !peer.loggedIn;
    peer.loggedIn = true;
    peer.lastCommandAt = Date.now();
    if (first) {
      peer.adminId = this.nextAdminId++;
      peer.answers.clear();
      this.broadcast(messages.adminLoggedIn(peer.adminId, peer.address));
    }
  }

  private command(peer: Peer, seq: number, text: string): void {
    let answer = peer.answers.get(seq);
    if (!answer) {
      if (text) this.commands.push(text);
      else this.keepAlives += 1;
      answer = this.run(peer, text).then((body) => encodeReplyParts(seq, body, this.options.chunkSize));
      peer.answers.set(seq, answer);
      if (peer.answers.size > ANSWER_CACHE) peer.answers.delete(peer.answers.keys().next().value!);
      // Sequence numbers wrap: the one half a cycle ahead will be reused for a new command.
      peer.answers.delete((seq + 128) & 0xff);
    }
    void answer.then((packets) => this.answer(peer, packets));
  }

  private async run(peer: Peer, text: string): Promise<string> {
    if (!text) return ''; // keep-alive
    const space = text.indexOf(' ');
    const word = (space < 0 ? text : text.slice(0, space)).toLowerCase();
    const args = space < 0 ? '' : text.slice(space + 1).trim();
    const handler = this.handlers.get(word);
    if (!handler) return 'Unknown command';
    try {
      return await handler(args, { server: this, adminId: peer.adminId });
    } catch (err) {
      return `Error: ${(err as Error).message}`;
    }
  }

  private pushMessage(peer: Peer, message: string): void {
    const seq = peer.nextMessageSeq;
    peer.nextMessageSeq = nextSequence(seq);
    const packet = encodeMessage(seq, message);
    let attempts = 0;
    const attempt = () => {
      if (this.closed || !peer.loggedIn) return;
      if (attempts >= this.options.messageAttempts) {
        this.drop(peer); // never acknowledged: BattlEye removes the client
        return;
      }
      attempts += 1;
      this.sendTo(peer, packet);
      peer.unacked.set(seq, setTimeout(attempt, this.options.messageRetryMs));
    };
    attempt();
  }

  private drop(peer: Peer): void {
    peer.loggedIn = false;
    for (const timer of peer.unacked.values()) clearTimeout(timer);
    peer.unacked.clear();
    this.peers.delete(peer.address);
  }

  /** Drops idle logins, and forgets addresses that never logged in, so that stray senders cannot grow the table. */
  private dropIdle(): void {
    const now = Date.now();
    for (const peer of [...this.peers.values()]) {
      if (now - peer.lastCommandAt > this.options.idleTimeoutMs) this.drop(peer);
    }
  }

  // --- the BattlEye commands ----------------------------------------------------------------

  private removePlayer(slot: number): FakePlayer | undefined {
    const index = this.players.findIndex((p) => p.slot === slot);
    return index < 0 ? undefined : this.players.splice(index, 1)[0];
  }

  private playerArg(args: string): { player: FakePlayer; rest: string } {
    const [slot, ...rest] = args.split(/\s+/);
    const player = this.players.find((p) => String(p.slot) === slot);
    if (!player) throw new Error(`Invalid player number ${slot ?? ''}`.trim());
    return { player, rest: rest.join(' ') };
  }

  private banFor(id: string, minutes: string | undefined, reason: string): FakeBan {
    const m = Number(minutes ?? 0);
    const expiresAt = Number.isFinite(m) && m > 0 ? Math.floor(Date.now() / 1000) + m * 60 : null;
    return { id, kind: isIP(id) ? 'IP' : 'GUID', expiresAt, reason };
  }

  private bansChanged(): void {
    this.onBansChanged?.(this.bans);
  }

  private installStandardCommands(): void {
    this.handle('players', () => playersText(this.players));
    this.handle('admins', () => adminsText(this.connectedAdmins));
    this.handle('bans', () => bansText(this.bans));
    this.handle('missions', () => missionsText(this.missions));
    this.handle('say', (args, ctx) => {
      const [target, ...words] = args.split(' ');
      const text = words.join(' ');
      if (target === '-1') this.broadcast(messages.adminSay(ctx.adminId, text));
      else this.broadcast(`RCon admin #${ctx.adminId}: (To ${this.playerArg(target ?? '').player.name}) ${text}`);
      return '';
    });
    this.handle('kick', (args) => {
      const { player, rest } = this.playerArg(args);
      this.removePlayer(player.slot);
      this.broadcast(messages.kicked(player, `Admin Kick${rest ? ` (${rest})` : ''}`));
      return '';
    });
    this.handle('ban', (args) => {
      const { player, rest } = this.playerArg(args);
      const [minutes, ...reason] = rest.split(' ').filter(Boolean);
      const isTime = minutes !== undefined && /^\d+$/.test(minutes);
      const why = (isTime ? reason : [minutes ?? '', ...reason]).join(' ').trim() || 'Banned';
      if (player.guid) this.bans.push(this.banFor(player.guid, isTime ? minutes : undefined, why));
      this.bansChanged();
      this.removePlayer(player.slot);
      this.broadcast(messages.kicked(player, `Admin Ban (${why})`));
      return '';
    });
    this.handle('addban', (args) => {
      const [id, minutes, ...reason] = args.split(' ').filter(Boolean);
      if (!id) throw new Error('Missing GUID or IP');
      const timed = minutes !== undefined && /^\d+$/.test(minutes);
      this.bans.push(this.banFor(id, timed ? minutes : undefined, (timed ? reason : [minutes ?? '', ...reason]).join(' ').trim()));
      this.bansChanged();
      return '';
    });
    this.handle('removeban', (args) => {
      const index = Number(args);
      if (!Number.isInteger(index) || index < 0 || index >= this.bans.length) throw new Error(`Invalid ban number ${args}`);
      this.bans.splice(index, 1);
      this.bansChanged();
      return '';
    });
    this.handle('writebans', () => {
      const now = Date.now() / 1000;
      this.bans.splice(0, this.bans.length, ...this.bans.filter((b) => b.expiresAt === null || b.expiresAt > now));
      this.bansChanged();
      return '';
    });
    this.handle('loadbans', () => '');
  }
}
