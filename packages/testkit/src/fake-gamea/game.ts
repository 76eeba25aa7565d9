import { createSocket, type Socket } from 'node:dgram';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FakeRconServer } from '../rcon/fake-rcon-server.js';
import { readBans, writeBans } from './ban-file.js';
import type { GameConfig } from './config-files.js';
import type { LaunchOptions } from './options.js';
import { RptLog } from './rpt-log.js';

export interface GameEnvironment {
  /** Players present at start (`GAMEA_FAKE_PLAYERS`). */
  players: number;
  /** Milliseconds before RCon answers (`GAMEA_FAKE_READY_MS`). */
  readyMs: number;
  /** Address the game and RCon ports bind to. */
  host: string;
}

/** How the game marks a log line of each level, so that the adapter's log parser reads the level back. */
const LEVEL_MARK: Record<string, string> = { debug: 'Debug: ', info: '', warning: 'Warning: ', error: 'Error: ' };

const fakeGuid = (n: number) => (0x9e3779b9 * (n + 1)).toString(16).padStart(8, '0').slice(-8).repeat(4);

/** The running fake: a bound game port, BattlEye RCon, the `.rpt` log, and the game's `#` commands. */
export class FakeGame {
  private gameSocket!: Socket;
  private rcon: FakeRconServer | null = null;
  private hung = false;
  private exiting = false;
  readonly log: RptLog;

  constructor(
    private readonly exePath: string,
    private readonly options: LaunchOptions,
    private readonly config: GameConfig,
    private readonly env: GameEnvironment,
  ) {
    const format = String(config.server.timeStampFormat ?? 'none').toLowerCase();
    this.log = new RptLog(options.profiles, exePath, format === 'short' || format === 'full' ? format : 'none');
  }

  private get missionsDir(): string {
    return join(dirname(this.exePath), 'mpmissions');
  }

  private missionFiles(): string[] {
    return existsSync(this.missionsDir)
      ? readdirSync(this.missionsDir)
          .filter((f) => f.toLowerCase().endsWith('.pbo'))
          .sort()
      : [];
  }

  async start(): Promise<void> {
    this.log.write('Dedicated host created.');
    for (const mod of this.options.mods) this.log.write(`Mod loaded: ${mod}`);
    for (const mod of this.options.serverMods) this.log.write(`Server mod loaded: ${mod}`);
    this.gameSocket = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      this.gameSocket.once('error', reject);
      this.gameSocket.bind(this.options.port, this.env.host, () => resolve());
    });
    this.log.write(`Game Port: ${this.options.port}, Steam Query Port: ${this.options.port + 1}`);
    this.log.write(`Host identity created. (${this.config.server.hostname ?? ''})`);

    const { password, port } = this.config.battlEye;
    if (password && port) {
      this.rcon = await FakeRconServer.start({ password, port, host: this.env.host, faults: { silent: true } });
      this.installCommands(this.rcon);
      // BattlEye loads its bans at launch, and saves its whole list whenever a command changes it.
      this.rcon.bans.push(...readBans(this.banFile));
      this.rcon.onBansChanged = (bans) => writeBans(this.banFile, bans);
      this.rcon.missions = this.missionFiles();
      for (let i = 0; i < this.env.players; i += 1) this.join(`Player${i + 1}`, fakeGuid(i), `127.0.0.${i + 2}`);
      setTimeout(() => {
        if (!this.rcon) return;
        this.rcon.faults.silent = false;
        this.log.write('BattlEye Server: Initialized (v1.217)');
      }, this.env.readyMs).unref();
    } else {
      this.log.write('BattlEye Server: RCon disabled (no RConPassword)');
    }
    if (this.options.autoInit) this.log.write('Game started.');
  }

  private join(name: string, guid: string, ip: string): void {
    const player = this.rcon!.join(name, guid, ip);
    this.log.write(`BattlEye Server: Player #${player.slot} ${name} (${ip}:${player.port}) connected`);
    this.log.write(`Player ${name} connected (id=${guid}).`);
  }

  private get banFile(): string {
    return join(this.options.bepath, 'bans.txt');
  }

  private installCommands(rcon: FakeRconServer): void {
    rcon.handle('#shutdown', () => {
      if (!this.hung) void this.exit(0, 'Shutdown requested over RCon.');
      return '';
    });
    rcon.handle('#restart', () => (this.log.write('Game restarted'), ''));
    rcon.handle('#reassign', () => (this.log.write('Roles assigned.'), ''));
    rcon.handle('#lock', () => (this.log.write('Server locked'), ''));
    rcon.handle('#unlock', () => (this.log.write('Server unlocked'), ''));
    rcon.handle('#missions', () => (this.log.write('Mission selection'), ''));
    rcon.handle('#monitor', () => {
      const players = rcon.players.length;
      this.log.write(
        `Server load: FPS ${this.options.limitFPS}, memory used: 512 MB, out: 0 Kbps, in: 0 Kbps, NG:0, G:0, BE-NG:0, BE-G:0, ` +
          `Players: ${players} (L:0, R:0, B:0, G:${players}, D:0)`,
      );
      return '';
    });
    rcon.handle('#mission', (args) => {
      const [name, difficulty] = args.split(/\s+/);
      if (!name || !this.missionFiles().some((f) => f.toLowerCase() === `${name.toLowerCase()}.pbo`))
        return `Mission ${name ?? ''} not found`;
      this.log.write(`Mission ${name} read from bank.`);
      this.log.write(`Starting mission: ${name}${difficulty ? ` (${difficulty})` : ''}`);
      return '';
    });
    rcon.handle('missions', () => ['Missions on server:', ...(rcon.missions = this.missionFiles())].join('\n'));
    rcon.handle('loadbans', () => {
      rcon.bans.splice(0, rcon.bans.length, ...readBans(this.banFile));
      this.log.write(`BattlEye Server: Loaded ${rcon.bans.length} bans`);
      return '';
    });
    rcon.handle('testkit.join', (args) => {
      const parts = args.split(/\s+/);
      if (parts.length < 3) throw new Error('usage: testkit.join NAME GUID IP');
      const ip = parts.pop()!;
      const guid = parts.pop()!;
      this.join(parts.join(' '), guid, ip);
      return '';
    });
    rcon.handle('testkit.leave', (args) => {
      const player = rcon.leave(Number(args));
      if (!player) throw new Error(`no player in slot ${args}`);
      this.log.write(`Player ${player.name} disconnected.`);
      return '';
    });
    rcon.handle('testkit.crash', () => {
      // Answer first, so the caller is not left waiting, then die the way a crash does: no clean-up.
      setTimeout(() => process.exit(3), 20);
      return '';
    });
    rcon.handle('testkit.hang', () => ((this.hung = true), ''));
    rcon.handle('testkit.stream', (args) => {
      // RATE lines a second for SECONDS, each carrying the time it was written in milliseconds to the
      // microsecond (for latency measurements: at whole milliseconds a 1 ms p99 and a 2 ms one look 2x apart).
      const [rate = '10', seconds = '5'] = args.split(/\s+/);
      const perSecond = Math.min(Math.max(Number(rate) || 1, 1), 10_000);
      const total = Math.floor(perSecond * Math.min(Math.max(Number(seconds) || 1, 0), 3600));
      let sent = 0;
      const started = Date.now();
      const timer = setInterval(() => {
        const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * perSecond));
        for (; sent < due; sent += 1)
          this.log.write(`stream ${sent + 1}/${total} at ${(performance.timeOrigin + performance.now()).toFixed(3)}`);
        if (sent >= total) clearInterval(timer);
      }, 2);
      return '';
    });
    rcon.handle('testkit.flood', (args) => {
      const [count = '100', size = '60'] = args.split(/\s+/);
      const n = Math.min(Number(count) || 0, 1_000_000);
      const filler = 'x'.repeat(Math.min(Math.max(Number(size) || 0, 0), 8000));
      for (let i = 1; i <= n; i += 1) this.log.write(`flood ${i}/${n} ${filler}`);
      return '';
    });
    rcon.handle('testkit.log', (args) => {
      const [level, ...words] = args.split(' ');
      const mark = LEVEL_MARK[(level ?? '').toLowerCase()];
      if (mark === undefined) throw new Error(`unknown level ${level}; use debug, info, warning or error`);
      this.log.write(`${mark}${words.join(' ')}`);
      return '';
    });
  }

  /** Stops within a second: closes the sockets, flushes the log, exits with `code`. */
  async exit(code: number, reason: string): Promise<void> {
    if (this.exiting) return;
    this.exiting = true;
    this.log.write(reason);
    setTimeout(() => process.exit(code), 1000).unref();
    await new Promise((r) => setTimeout(r, 50)); // let the RCon answer leave first
    await this.rcon?.close();
    this.gameSocket.close();
    await this.log.close();
    process.exit(code);
  }
}
