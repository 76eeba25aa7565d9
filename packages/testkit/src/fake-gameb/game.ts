import { createSocket, type Socket } from 'node:dgram';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SourceRconServer } from '../rcon-source/server.js';
import { BanLists } from './bans.js';
import { splitCommands } from './cfg-lines.js';
import { installCommands, type ConsoleHandler } from './commands.js';
import { GameLog } from './game-log.js';
import { LaunchError, type LaunchOptions } from './options.js';
import { logName, type Player } from './players.js';
import { parseSteamId, steamIdText } from './steamid.js';
import { installTestCommands } from './test-commands.js';

export interface GameEnvironment {
  /** Address the game port (UDP) and RCON (TCP) bind to, whatever `+ip` says (`GAMEB_FAKE_HOST`). */
  host: string;
  /** Milliseconds after the map loaded before RCON listens (`GAMEB_FAKE_READY_MS`). */
  readyMs: number;
  /** Milliseconds between two packets of one RCON answer (`GAMEB_FAKE_PACKET_GAP_MS`, default 0). */
  packetGapMs: number;
  /** The universe digit the engine prints in `STEAM_X:Y:Z` and compares in bans (`GAMEB_FAKE_UNIVERSE`, 0 or 1). */
  universe?: number;
}

export const VERSION = '1.0.0.0';

/**
 * The running fake: the game port bound (UDP), RCON on the same port (TCP), the cvars of the exec'd
 * config, the ban lists, the players, the map, and the log. Every command, from a `.cfg` file or from
 * RCON, goes through `run`, as the engine's console does.
 */
export class FakeGameB {
  readonly gameDir: string;
  readonly log: GameLog;
  readonly bans = new BanLists();
  readonly players: Player[] = [];
  /** The cvars the fake knows (a name it does not know is an `Unknown command`, in a .cfg file as over RCON). */
  readonly cvars = new Map<string, string>([
    ['hostname', 'gameb dedicated server'],
    ['sv_password', ''],
    ['rcon_password', ''],
    ['mapcyclefile', 'mapcycle.txt'],
    ['sv_maxrate', '0'],
    ['sv_minrate', '3500'],
    ['mp_timelimit', '30'],
    ['mp_maxrounds', '0'],
    ['mp_friendlyfire', '0'],
    ['sv_lan', '0'],
    ['sv_region', '255'],
    ['sv_contact', ''],
    ['sv_tags', ''],
    ['sv_cheats', '0'],
    ['log', 'on'],
    ['sv_logecho', '1'],
    ['sv_logfile', '1'],
  ]);
  map: string | null = null;
  rcon: SourceRconServer | null = null;
  hung = false;
  private readonly handlers = new Map<string, ConsoleHandler>();
  private udp: Socket | null = null;
  private nextUserId = 2;
  private exiting = false;
  private execDepth = 0;

  get universe(): number {
    return this.env.universe ?? 0;
  }

  constructor(
    exePath: string,
    readonly options: LaunchOptions,
    private readonly env: GameEnvironment,
  ) {
    this.gameDir = dirname(exePath);
    this.log = new GameLog(this.gameDir);
    installCommands(this, this.handlers);
    installTestCommands(this, this.handlers);
  }

  cfgPath(file: string): string {
    return join(this.gameDir, 'cfg', file);
  }

  mapExists(map: string): boolean {
    return /^[A-Za-z0-9_.-]+$/.test(map) && existsSync(join(this.gameDir, 'maps', `${map}.bsp`));
  }

  async start(): Promise<void> {
    this.console('Console initialized.');
    const cfg = this.cfgPath(this.options.exec);
    if (!existsSync(cfg)) throw new LaunchError(`couldn't exec ${this.options.exec}: ${cfg} not found`);
    this.exec(this.options.exec);
    if (!this.cvars.get('rcon_password')) throw new LaunchError(`no rcon_password in cfg/${this.options.exec}: RCON would be off`);
    // srcds' autoexec runs the ban files at launch, so a banned player cannot come back after a restart.
    for (const file of ['banned_user.cfg', 'banned_ip.cfg']) if (existsSync(this.cfgPath(file))) this.exec(file);
    this.udp = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      this.udp!.once('error', reject);
      this.udp!.bind(this.options.port, this.env.host, () => resolve());
    });
    this.udp.on('error', () => {});
    this.console(`Network: IP ${this.options.ip}, mode MP, dedicated Yes, ports ${this.options.port} SV / ${this.options.port + 5} CL`);
    // A map that is not there: srcds says so and runs on without one (RCON works, nobody can join).
    if (!this.loadMap(this.options.map)) this.log.rotate(VERSION);
    const password = this.cvars.get('rcon_password')!;
    const listen = async () => {
      this.rcon = await SourceRconServer.start({
        password,
        host: this.env.host,
        port: this.options.port,
        packetGapMs: this.env.packetGapMs,
        handler: (command, ctx) => this.rconCommand(command, ctx.from),
        onAuth: (ok, from) => {
          if (!ok) this.log.write(`rcon from "${from}": Bad Password`);
        },
      });
      this.console('Connection to Steam servers successful.');
    };
    if (this.env.readyMs > 0) {
      setTimeout(() => void listen().catch((err: Error) => this.exit(1, `RCON cannot listen: ${err.message}`)), this.env.readyMs);
    } else {
      await listen();
    }
  }

  /** A console line (not a log line): stdout only, as srcds' `-console` prints it. */
  console(text: string): void {
    process.stdout.write(`${text}\n`);
  }

  /** Loads a map (at launch, `changelevel`): a new log file, the cvars logged, `Started map`. */
  loadMap(map: string): boolean {
    if (!this.mapExists(map)) {
      this.console(`map load failed: ${map} not found or invalid`);
      return false;
    }
    this.map = map;
    this.log.rotate(VERSION);
    this.log.write(`Loading map "${map}"`);
    this.log.write('Server cvars start');
    for (const [name, value] of this.cvars) if (!name.includes('password')) this.log.write(`"${name}" = "${value}"`);
    this.log.write('Server cvars end');
    this.log.write(`Started map "${map}" (CRC "${crcOf(map)}")`);
    return true;
  }

  /** The maps of `mapcycle.txt` (read anew each time, as srcds does when the file changed), in order. */
  mapCycle(): string[] {
    const path = join(this.gameDir, this.cvars.get('mapcyclefile') || 'mapcycle.txt');
    if (!existsSync(path)) return [];
    return readFileSync(path, 'utf8')
      .split(/\r?\n/)
      .map((l) => l.replace(/\/\/.*$/, '').trim())
      .filter(Boolean);
  }

  /** Runs `cfg/<file>` line by line; what it prints goes to the console, not to the caller. */
  exec(file: string): boolean {
    const path = this.cfgPath(file);
    if (!/^[A-Za-z0-9_.-]+$/.test(file) || !existsSync(path)) return false;
    // A file that execs itself (or a loop of them) stops here instead of overflowing the stack.
    if (this.execDepth >= 8) return (this.console(`exec ${file}: nested too deep`), false);
    this.execDepth += 1;
    try {
      const out = this.run(readFileSync(path, 'utf8'));
      if (out) process.stdout.write(out);
    } finally {
      this.execDepth -= 1;
    }
    return true;
  }

  /** Runs console text (one or more commands) and returns what they print. */
  run(text: string): string {
    let out = '';
    for (const { words, args } of splitCommands(text)) {
      const word = words[0].toLowerCase();
      const handler = this.handlers.get(word);
      if (handler) out += handler(words.slice(1), args);
      else if (this.cvars.has(word)) out += this.cvar(word, words[1]);
      else out += `Unknown command "${words[0]}"\n`;
    }
    return out;
  }

  private cvar(name: string, value: string | undefined): string {
    if (value === undefined) return `"${name}" = "${this.cvars.get(name)}"\n`;
    this.cvars.set(name, value);
    if (name === 'rcon_password') this.rcon?.setPassword(value);
    return '';
  }

  private rconCommand(command: string, from: string): string {
    this.log.write(`rcon from "${from}": command "${command}"`);
    return this.run(command);
  }

  /** A player connects: refused (and logged) when banned, the server is full, no map runs, or the ID is on already. */
  join(name: string, id: string, address: string): Player {
    const given = parseSteamId(id);
    if (!given) throw new Error(`not a SteamID: ${id}`);
    // The engine names every player in its own universe, whatever form the test named him in.
    const steamId = { account: given.account, universe: this.universe, text: steamIdText(given.account, this.universe) };
    const [ip, port = '27005'] = address.split(':');
    const refuse = (why: string) => {
      this.log.write(`Rejected connection from "${name}<${steamId.text}>" (${ip}:${port}): ${why}`);
      return new Error(`refused: ${why}`);
    };
    if (this.bans.idBanned(steamId)) throw refuse('You have been banned from this server (STEAM ID)');
    if (this.bans.ipBanned(ip)) throw refuse('You have been banned from this server (IP)');
    if (!this.map) throw refuse('Server is not running a map');
    if (this.players.length >= this.options.maxPlayers) throw refuse('Server is full');
    if (this.players.some((p) => p.steamId.account === steamId.account)) throw refuse('SteamID already connected');
    const player: Player = {
      userid: this.nextUserId++,
      name,
      steamId,
      address: `${ip}:${port}`,
      ip,
      joinedAt: Date.now(),
      ping: 40 + (steamId.account % 60),
      loss: 0,
    };
    this.players.push(player);
    this.console(`Client "${name}" connected (${player.address}).`);
    this.log.write(`${logName(player)} connected, address "${player.address}"`);
    this.log.write(`${logName(player)} STEAM USERID validated`);
    this.log.write(`${logName(player)} entered the game`);
    return player;
  }

  /** A player goes: off the list, and `disconnected (reason "…")` in the log. */
  leave(player: Player, reason: string): void {
    const index = this.players.indexOf(player);
    if (index < 0) return;
    this.players.splice(index, 1);
    this.console(`Dropped ${player.name} from server (${reason})`);
    this.log.write(`${logName(player)} disconnected (reason "${reason}")`);
  }

  /** Finds a player by userid (`2` or `#2`) or by SteamID in either form. */
  findPlayer(ref: string): Player | undefined {
    const userid = /^#?(\d+)$/.exec(ref);
    if (userid) return this.players.find((p) => p.userid === Number(userid[1]));
    const steamId = parseSteamId(ref);
    return steamId ? this.players.find((p) => p.steamId.account === steamId.account) : undefined;
  }

  /** Stops within a second: the RCON answer leaves first, then the sockets and the log close. */
  async exit(code: number, reason: string): Promise<void> {
    if (this.exiting) return;
    this.exiting = true;
    this.console(reason);
    setTimeout(() => process.exit(code), 1000).unref();
    await new Promise((r) => setTimeout(r, 50));
    await this.rcon?.close();
    this.udp?.close();
    this.log.close();
    process.exit(code);
  }
}

/** A stable stand-in for the map file's CRC that srcds logs. */
function crcOf(map: string): string {
  let h = 0;
  for (const c of map) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return String(h);
}
