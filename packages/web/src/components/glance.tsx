import { useEffect, useState } from 'preact/hooks';
import type { ServerListItem, ServerWarning } from '@garrison/core';
import { playersText } from './figures.js';

/** What each warning says to an admin, and what to do about it. */
const WARNINGS: Record<ServerWarning, { label: string; detail: string }> = {
  exe_missing: {
    label: 'Executable not found',
    detail: 'No file at the executable path: the server cannot start. Check the path in Edit.',
  },
  crash_loop: {
    label: 'Gave up restarting',
    detail: 'It crashed more often than its restart limit allows. Read the log, then start it again.',
  },
  restart_needed: {
    label: 'Restart needed',
    detail: 'The config changed since the game started: the change takes effect at the next start.',
  },
  shares_installation: {
    label: 'Shared installation',
    detail: 'Another server runs from the same game folder: each has its own profile and config, but missions and mods are shared.',
  },
  mods_outdated: {
    label: 'Mods outdated',
    detail: 'A Workshop mod has a newer version on Steam: update it on the Workshop tab (or let a schedule do it).',
  },
};

export function Warnings({ warnings }: { warnings: readonly ServerWarning[] }) {
  if (!warnings.length) return null;
  return (
    <ul class="badges" aria-label="Needs attention">
      {warnings.map((w) => (
        <li key={w} class="badge" title={WARNINGS[w].detail} data-warning={w}>
          {WARNINGS[w].label}
        </li>
      ))}
    </ul>
  );
}

/** Players as "3 / 40" once the game has answered; otherwise what playersText says. */
export function playersOf(server: Pick<ServerListItem, 'status' | 'player_count' | 'max_players'>): string | number {
  const count = playersText(server.status, server.player_count);
  return typeof count === 'number' && server.max_players !== null ? `${count} / ${server.max_players}` : count;
}

/** Where players connect: this host (as the browser reached it) and the game port. */
export const connectAddress = (server: Pick<ServerListItem, 'game_port'>) => `${location.hostname}:${server.game_port}`;

/** "2 h 05 min" since `startedAt`, or a dash without a running process. */
export function uptimeText(status: string, startedAt: string | null, now: number): string {
  if (!startedAt || !(status === 'running' || status === 'starting')) return '–';
  const minutes = Math.max(0, Math.floor((now - Date.parse(startedAt)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** The time now, moved on every half minute: for figures such as uptime that grow by themselves. */
export function useMinuteClock(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const ticker = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(ticker);
  }, []);
  return now;
}
