import { isIPv4 } from 'node:net';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeGameB } from './game.js';
import { VERSION } from './game.js';
import { logName, statusText } from './players.js';
import { parseSteamId } from './steamid.js';

/** A console command: its words after the first (quotes removed), and its argument text as typed. */
export type ConsoleHandler = (words: string[], args: string) => string;

const unquote = (text: string) => (/^"[\s\S]*"$/.test(text) ? text.slice(1, -1) : text);

function minutesOf(word: string | undefined): number | null {
  if (word === undefined || !/^\d+(\.\d+)?$/.test(word)) return null;
  return Number(word);
}

/** The engine's commands the fake knows, with their output where srcds prints any. */
export function installCommands(game: FakeGameB, handlers: Map<string, ConsoleHandler>): void {
  const on = (name: string, handler: ConsoleHandler) => handlers.set(name, handler);

  on('status', () =>
    statusText({
      hostname: game.cvars.get('hostname') ?? '',
      version: VERSION,
      ip: game.options.ip,
      port: game.options.port,
      map: game.map,
      maxPlayers: game.options.maxPlayers,
      players: game.players,
    }),
  );
  on('echo', (_words, args) => `${unquote(args)}\n`);
  on('say', (_words, args) => {
    const text = unquote(args);
    game.console(`Console: ${text}`);
    game.log.write(`"Console<0><Console><Console>" say "${text}"`);
    return '';
  });
  on('exec', ([file]) => (file && game.exec(file) ? '' : `exec: couldn't exec ${file ?? ''}\n`));
  on('quit', () => {
    if (!game.hung) void game.exit(0, 'Server shutting down (quit).');
    return '';
  });
  handlers.set('exit', handlers.get('quit')!);
  on('changelevel', ([map]) => {
    if (!map || !game.mapExists(map)) return `changelevel failed: ${map ?? ''} not found\n`;
    game.loadMap(map);
    return '';
  });
  on('maps', ([filter = '*']) => {
    const dir = join(game.gameDir, 'maps');
    const maps = existsSync(dir) ? readdirSync(dir).filter((f) => f.toLowerCase().endsWith('.bsp')) : [];
    const wanted = maps.filter((f) => filter === '*' || f.toLowerCase().includes(filter.toLowerCase()));
    return `-------------\n${wanted.map((f) => `PENDING:   (fs) ${f}\n`).join('')}`;
  });

  on('kickid', ([ref, ...reason]) => {
    const player = ref === undefined ? undefined : game.findPlayer(ref);
    if (!player) return `kickid: no player ${ref ?? ''} on the server\n`;
    const why = reason.join(' ');
    game.log.write(`Kick: ${logName(player)} was kicked by "Console"${why ? ` (message "${why}")` : ''}`);
    game.leave(player, why || 'Kicked by Console');
    return `Kicked ${player.name}\n`;
  });

  // banid <minutes> <userid | SteamID> [kick]: in memory only, until writeid.
  on('banid', ([minutesWord, ref, kick]) => {
    const minutes = minutesOf(minutesWord);
    if (minutes === null || !ref) return 'Usage:  banid <minutes> <userid | uniqueid> { kick }\n';
    const player = /^#?\d+$/.test(ref) ? game.findPlayer(ref) : undefined;
    const steamId = player?.steamId ?? parseSteamId(ref, game.universe);
    if (!steamId) return `banid:  couldn't parse "${ref}" as a userid or SteamID\n`;
    game.bans.banId(steamId, minutes);
    const present = player ?? game.players.find((p) => p.steamId.account === steamId.account);
    const who = present ? logName(present) : `"<><${steamId.text}><>"`;
    game.log.write(`Banid: ${who} was banned "${minutes > 0 ? `for ${minutes.toFixed(2)} minutes` : 'permanently'}" by "Console"`);
    if (present && kick?.toLowerCase() === 'kick') game.leave(present, 'Kicked and banned');
    return '';
  });
  on('removeid', ([ref]) => {
    const steamId = ref === undefined ? null : parseSteamId(ref, game.universe);
    if (!steamId) return `removeid:  couldn't parse "${ref ?? ''}" as a SteamID\n`;
    if (!game.bans.removeId(steamId)) return `removeid:  couldn't find ${steamId.text}\n`;
    game.log.write(`Removeid: "<><${steamId.text}><>" was unbanned by "Console"`);
    return '';
  });
  on('writeid', () => (game.bans.writeIds(game.cfgPath('banned_user.cfg')), ''));
  on('listid', () => game.bans.listId());

  on('addip', ([minutesWord, ip]) => {
    const minutes = minutesOf(minutesWord);
    if (minutes === null || !ip) return 'Usage:  addip <minutes> <ipaddress>\n';
    if (!isIPv4(ip)) return `addip:  "${ip}" is not a valid IP address\n`;
    game.bans.banIp(ip, minutes);
    game.log.write(
      `Addip: "<><><>" was banned by IP "${minutes > 0 ? `for ${minutes.toFixed(2)} minutes` : 'permanently'}" by "Console" (IP "${ip}")`,
    );
    return '';
  });
  on('removeip', ([ip]) => {
    if (!ip || !isIPv4(ip)) return `removeip:  "${ip ?? ''}" is not a valid IP address\n`;
    if (!game.bans.removeIp(ip)) return `removeip:  couldn't find ${ip}\n`;
    game.log.write(`Removeip: "<><><>" was unbanned by "Console" (IP "${ip}")`);
    return '';
  });
  on('writeip', () => (game.bans.writeIps(game.cfgPath('banned_ip.cfg')), ''));
  on('listip', () => game.bans.listIp());

  on('cvarlist', () => {
    // Long on purpose, as on a real server (hundreds of cvars, several RCON packets).
    const rows = [...game.cvars].map(([name, value]) => `${name.padEnd(40)}: ${name.includes('password') ? '' : value} : , "sv"`);
    for (let i = 1; i <= 400; i += 1) rows.push(`${`fake_cvar_${String(i).padStart(4, '0')}`.padEnd(40)}: 0 : , "sv" : placeholder`);
    return `cvar list\n--------------\n${rows.join('\n')}\n--------------\n${rows.length} total convars/concommands\n`;
  });
}
