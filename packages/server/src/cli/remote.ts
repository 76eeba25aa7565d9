import { GarrisonApiError, GarrisonClient, GarrisonNetworkError } from '@garrison/sdk';
import type { ServerListItem } from '@garrison/core';
import { DEFAULT_TIMEOUT_S, parse, UsageError, type Options } from './usage.js';
import { expectOnly } from '@garrison/core';

// The commands that manage a running service over its HTTP API, with an API key, through the SDK: what
// they may do is what the key's scopes and servers allow, and the service audits it as the key's.

/** A failure the service answered, or the network's: the CLI prints its one line and exits 1. */
export class RemoteFailure extends Error {}

export type RemoteCommand = 'servers list' | 'servers start' | 'servers stop' | 'servers restart' | 'rcon';

const CONNECTION: Options = {
  url: { type: 'string' },
  'api-key': { type: 'string' },
  timeout: { type: 'string' },
  json: { type: 'boolean' },
};

interface Connection {
  client: GarrisonClient;
  json: boolean;
}

function connect(command: string, values: Record<string, unknown>): Connection {
  const url = String(values.url ?? process.env.GARRISON_URL ?? '');
  if (!url) throw new UsageError("the service's URL is missing: set GARRISON_URL or give --url (e.g. http://127.0.0.1:8080)", command);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (err) {
    expectOnly(err, TypeError);
    throw new UsageError(`--url must be an http:// or https:// URL; got ${JSON.stringify(url)}`, command);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new UsageError(`--url must be an http:// or https:// URL; got ${JSON.stringify(url)}`, command);
  // fetch refuses such a URL, and its message would repeat the password.
  if (parsed.username || parsed.password)
    throw new UsageError('--url must not hold a user name or password: the API key is the credential', command);
  const key = String(values['api-key'] ?? process.env.GARRISON_API_KEY ?? '');
  if (!key)
    throw new UsageError("the API key is missing: set GARRISON_API_KEY (or give --api-key); the console's Account page makes one", command);
  const timeout = values.timeout === undefined ? DEFAULT_TIMEOUT_S : Number(values.timeout);
  if (!Number.isFinite(timeout) || timeout <= 0 || timeout > 3600)
    throw new UsageError(`--timeout must be a number of seconds above 0, at most 3600; got ${JSON.stringify(values.timeout)}`, command);
  // A path under the URL (a proxy's prefix) is kept; the SDK adds /api.
  return { client: new GarrisonClient({ baseUrl: parsed.href, token: key, timeoutMs: timeout * 1000 }), json: Boolean(values.json) };
}

/** The id of the server SERVER names: digits are an id; anything else a name, matched exactly, else ignoring case. */
async function serverId(client: GarrisonClient, ref: string, command: string): Promise<{ id: number; label: string }> {
  if (/^\d+$/.test(ref)) return { id: Number(ref), label: `server ${ref}` };
  const all = await client.servers.all();
  const exact = all.filter((s) => s.name === ref);
  const matches = exact.length ? exact : all.filter((s) => s.name.toLowerCase() === ref.toLowerCase());
  if (matches.length === 0)
    throw new RemoteFailure(`NOT_FOUND: no server is named ${JSON.stringify(ref)} (garrison servers list shows them)`);
  if (matches.length > 1) {
    throw new UsageError(
      `${matches.length} servers are named ${JSON.stringify(ref)} (ids ${matches.map((s) => s.id).join(', ')}): give the id instead`,
      command,
    );
  }
  return { id: matches[0].id, label: `server ${matches[0].id} (${matches[0].name})` };
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function serversTable(servers: ServerListItem[]): string {
  if (servers.length === 0) return 'no servers';
  const players = (s: ServerListItem) =>
    s.player_count === null ? '-' : `${s.player_count}${s.max_players === null ? '' : `/${s.max_players}`}`;
  return table([
    ['ID', 'NAME', 'GAME', 'STATUS', 'PLAYERS', 'PORT', 'ATTENTION'],
    ...servers.map((s) => [String(s.id), s.name, s.game_type, s.status, players(s), String(s.game_port), s.warnings.join(', ') || '-']),
  ]);
}

async function perform(command: RemoteCommand, args: string[]): Promise<void> {
  const options: Options =
    command === 'servers stop' ? { ...CONNECTION, force: { type: 'boolean' }, reason: { type: 'string' } } : CONNECTION;
  const { values, positionals } = parse(command, args, options, command === 'servers list' ? 0 : command === 'rcon' ? Infinity : 1);
  const [ref, ...words] = positionals;
  if (command !== 'servers list' && !ref) throw new UsageError('the server (its id or name) is missing', command);
  if (command === 'rcon' && words.length === 0) throw new UsageError('the command to run is missing', command);
  const { client, json } = connect(command, values);
  const print = (value: unknown, text: string) => console.log(json ? JSON.stringify(value) : text);

  if (command === 'servers list') {
    const servers = await client.servers.all();
    return print(servers, serversTable(servers));
  }
  const { id, label } = await serverId(client, ref, command);
  switch (command) {
    case 'servers start': {
      const started = await client.servers.start(id);
      return print({ server_id: id, ...started }, `${label}: starting (pid ${started.pid})`);
    }
    case 'servers stop': {
      const body = { ...(values.force ? { force: true } : {}), ...(values.reason !== undefined ? { reason: String(values.reason) } : {}) };
      const stopped = await client.servers.stop(id, body);
      return print({ server_id: id, ...stopped }, `${label}: stopped`);
    }
    case 'servers restart': {
      const started = await client.servers.restart(id);
      return print({ server_id: id, ...started }, `${label}: restarting (pid ${started.pid})`);
    }
    case 'rcon': {
      const { response } = await client.rcon.command(id, words.join(' '));
      return print({ response }, response);
    }
  }
}

/** Runs a remote command; what the service refused, and what did not reach it, become one line each. */
export async function runRemote(command: RemoteCommand, args: string[]): Promise<void> {
  try {
    await perform(command, args);
  } catch (err) {
    if (err instanceof GarrisonApiError) throw new RemoteFailure(`${err.code}: ${err.message}`);
    if (err instanceof GarrisonNetworkError) throw new RemoteFailure(err.message);
    throw err;
  }
}
