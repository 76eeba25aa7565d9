/**
 * The text BattlEye answers and pushes, as captured from real servers (see the reference notes):
 * fixed headers and dash lines, columns padded as in the samples, parse-by-whitespace safe.
 */

export interface FakePlayer {
  slot: number;
  name: string;
  /** 32 lower-case hex digits, or null while the player is still joining. */
  guid: string | null;
  ip: string;
  port: number;
  ping: number;
  verified: boolean;
  lobby: boolean;
}

export interface FakeBan {
  /** A GUID or an IPv4 address. */
  id: string;
  kind: 'GUID' | 'IP';
  /** Unix seconds, or null when permanent. */
  expiresAt: number | null;
  reason: string;
}

export function playersText(players: FakePlayer[]): string {
  const rows = players.map((p) => {
    const guid = p.guid ? `${p.guid}${(p.verified ? '(OK)' : '(?)').padEnd(4)}` : '-';
    const name = p.lobby ? `${p.name} (Lobby)` : p.name;
    return `${String(p.slot).padEnd(4)}${`${p.ip}:${p.port}`.padEnd(22)}${String(p.ping).padEnd(5)}${guid} ${name}`;
  });
  return [
    'Players on server:',
    '[#] [IP Address]:[Port] [Ping] [GUID] [Name]',
    '-'.repeat(50),
    ...rows,
    `(${players.length} players in total)`,
  ].join('\n');
}

function minutesLeft(ban: FakeBan, nowSeconds: number): string {
  if (ban.expiresAt === null) return 'perm';
  const left = Math.ceil((ban.expiresAt - nowSeconds) / 60);
  return left > 0 ? String(left) : '-';
}

/** GUID bans first, then IP bans, each row keeping its index in the whole list (what removeBan takes). */
export function bansText(bans: FakeBan[], nowSeconds = Date.now() / 1000): string {
  const row = (ban: FakeBan, index: number, idWidth: number) =>
    `${String(index).padEnd(2)} ${ban.id.padEnd(idWidth)} ${minutesLeft(ban, nowSeconds)} ${ban.reason}`.trimEnd();
  const indexed = bans.map((ban, index) => ({ ban, index }));
  const guid = indexed.filter((b) => b.ban.kind === 'GUID').map((b) => row(b.ban, b.index, 32));
  const ip = indexed.filter((b) => b.ban.kind === 'IP').map((b) => row(b.ban, b.index, 15));
  return [
    'GUID Bans:',
    '[#] [GUID] [Minutes left] [Reason]',
    '-'.repeat(40),
    ...guid,
    '',
    'IP Bans:',
    '[#] [IP Address] [Minutes left] [Reason]',
    '-'.repeat(46),
    ...ip,
  ].join('\n');
}

export function adminsText(admins: { id: number; address: string }[]): string {
  return ['Connected RCon admins:', '[#] [IP Address]:[Port]', '-'.repeat(29), ...admins.map((a) => `${a.id} ${a.address}`)].join('\n');
}

export function missionsText(files: string[]): string {
  return ['Missions on server:', ...files].join('\n');
}

export const messages = {
  adminLoggedIn: (id: number, address: string) => `RCon admin #${id} (${address}) logged in`,
  connected: (p: FakePlayer) => `Player #${p.slot} ${p.name} (${p.ip}:${p.port}) connected`,
  guid: (p: FakePlayer) => `Player #${p.slot} ${p.name} - BE GUID: ${p.guid}`,
  verified: (p: FakePlayer) => `Verified GUID (${p.guid}) of player #${p.slot} ${p.name}`,
  disconnected: (p: FakePlayer) => `Player #${p.slot} ${p.name} disconnected`,
  kicked: (p: FakePlayer, reason: string) => `Player #${p.slot} ${p.name} (${p.guid ?? '-'}) has been kicked by BattlEye: ${reason}`,
  adminSay: (adminId: number, text: string) => `RCon admin #${adminId}: (Global) ${text}`,
};
