import type { ConfigValues, RenderedFile, ServerContext } from '@garrison/core';
import { layout } from '../layout.js';
import { cvarLine, statementsOf } from './cvars.js';

const HEADER = '// Written by Garrison: edit the settings in Garrison, changes made here are overwritten on the next start.';
const EXTRA_HEADER = "// Extra lines, written as they were given in Garrison's extra_lines field:";

type Section = Record<string, unknown>;
const text = (s: Section, k: string) => String(s[k] ?? '');
const int = (s: Section, k: string) => Math.trunc(Number(s[k] ?? 0));

/**
 * The cvars and commands Garrison writes into server.cfg (lower case), each with the field to use instead,
 * or '' for one Garrison sets itself. An extra line setting one would have the game find it twice.
 */
export const MANAGED: ReadonlyMap<string, string> = new Map([
  ['hostname', 'hostname'],
  ['sv_password', 'sv_password'],
  ['rcon_password', 'rcon_password'],
  ['sv_maxrate', 'sv_maxrate'],
  ['mp_timelimit', 'mp_timelimit'],
  ['maxplayers', 'max_players'],
  ['mapcyclefile', ''],
  ['log', ''],
  ['sv_logsdir', ''],
  ['sv_rcon_log', ''],
]);

/** cfg/server.cfg: the fields as cvars, the server's own map cycle, log folder and ban lists, then the extra lines. */
export function renderServerCfg(config: ConfigValues, ctx: ServerContext): string {
  const server = config.server ?? {};
  const { names } = layout(ctx);
  const lines = [
    HEADER,
    '',
    cvarLine('hostname', text(server, 'hostname')),
    cvarLine('sv_password', text(server, 'sv_password')),
    cvarLine('rcon_password', text(config.rcon ?? {}, 'rcon_password')),
    cvarLine('sv_maxrate', int(server, 'sv_maxrate')),
    cvarLine('mp_timelimit', int(server, 'mp_timelimit')),
    '',
    '// The files of this server: its map cycle, its log folder and its ban lists (which Garrison and the game share).',
    cvarLine('mapcyclefile', names.mapcycle),
    cvarLine('sv_logsdir', names.logs),
    'log on',
    // The game would log every RCON command as sent, a password set by one included, where any viewer reads the log.
    cvarLine('sv_rcon_log', 0),
    `exec ${names.bannedUser}`,
    `exec ${names.bannedIp}`,
  ];
  const extra = (server.extra_lines as string[] | undefined) ?? [];
  if (extra.length) lines.push('', EXTRA_HEADER, ...extra);
  return lines.join('\n') + '\n';
}

/** mapcycle.txt: one map name a line, in the order played. */
export function renderMapcycle(config: ConfigValues): string {
  const maps = (config.mapcycle?.maps as { name: string }[] | undefined) ?? [];
  return maps.map((m) => `${m.name}\n`).join('');
}

export function renderConfigFiles(config: ConfigValues, ctx: ServerContext): RenderedFile[] {
  const paths = layout(ctx);
  return [
    { label: 'server.cfg', path: paths.serverCfg, content: renderServerCfg(config, ctx) },
    { label: 'mapcycle.txt', path: paths.mapcycle, content: renderMapcycle(config) },
  ];
}

/** The map the server starts on: the first of the cycle, or the configured one when the cycle is empty. */
export function startMap(config: ConfigValues): string {
  const maps = (config.mapcycle?.maps as { name: string }[] | undefined) ?? [];
  return maps[0]?.name ?? (text(config.mapcycle ?? {}, 'start_map') || 'de_dust2');
}

/**
 * What is wrong with extra lines, with the line number, or null: a quote left open (the rest of the line
 * would become a value), a cvar Garrison writes itself, an `exec` of a file outside the game's cfg folder.
 */
export function extraLinesProblem(lines: readonly string[]): string | null {
  for (const [index, line] of lines.entries()) {
    const at = `line ${index + 1}`;
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(line)) return `${at}: a line cannot hold control characters`;
    for (const statement of statementsOf(line)) {
      if (statement.unclosedQuote) return `${at}: a quote is not closed on its line`;
      const name = statement.name.toLowerCase();
      const field = MANAGED.get(name);
      if (field !== undefined) {
        return `${at}: ${statement.name} is written by Garrison${field ? `: use the field '${field}' instead` : ' itself'}`;
      }
      if (name === 'exec') {
        const file = statement.args[0] ?? '';
        if (!file || /^[\\/]|^[A-Za-z]:|(^|[\\/])\.\.([\\/]|$)/.test(file))
          return `${at}: exec takes a file of the game's cfg folder (a relative name without ..)`;
      }
    }
  }
  return null;
}

/** ConfigGenerator.checkSection: the extra lines of server.cfg. */
export function checkSection(section: string, values: Record<string, unknown>): string | null {
  if (section !== 'server') return null;
  const problem = extraLinesProblem((values.extra_lines as string[] | undefined) ?? []);
  return problem ? `extra_lines ${problem}` : null;
}
