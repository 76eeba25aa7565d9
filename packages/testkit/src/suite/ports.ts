import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { isMissing } from '@garrison/core';

/**
 * Ports are drawn below the kernel's ephemeral range, so the ports the OS hands to outgoing sockets (an
 * RCon client's, a database connection's) never collide with one a test is about to bind.
 */
function drawRange(): [number, number] {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && low > 12_000) return [10_000, low - 8];
  } catch (err) {
    if (!isMissing(err)) throw err; // not Linux: fall back to a range that is below the usual ephemeral ranges
  }
  return [10_000, 32_000];
}

const handedOut = new Set<number>();

const udpFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createSocket('udp4');
    socket.once('error', () => resolve(false));
    socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
  });

const tcpFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

async function allFree(ports: number[]): Promise<boolean> {
  for (const port of ports) {
    if (handedOut.has(port) || !(await udpFree(port)) || !(await tcpFree(port))) return false;
  }
  return true;
}

/**
 * A block of `count` consecutive ports, free on 127.0.0.1 for UDP and TCP right now and not handed out
 * before by this process. Random, so that suites running side by side on one machine rarely even try
 * the same port, and checked by binding, so that a port in use is never returned.
 */
export async function freePorts(count = 1): Promise<number> {
  const [low, high] = drawRange();
  for (let attempt = 0; attempt < 500; attempt++) {
    const first = low + Math.floor(Math.random() * (high - low - count));
    const block = Array.from({ length: count }, (_, i) => first + i);
    if (await allFree(block)) {
      for (const port of block) handedOut.add(port);
      return first;
    }
  }
  throw new Error(`no block of ${count} free ports found in ${low}-${high}`);
}

/** One free port (UDP and TCP). */
export const freePort = () => freePorts(1);

/**
 * Ports for one game server: `game_port`, and `rcon_port` at the adapter's default of game_port + 3,
 * with the ports between them free as well (the game takes the next ones for its query ports).
 */
export async function freeGamePorts(): Promise<{ game_port: number; rcon_port: number }> {
  const game_port = await freePorts(4);
  return { game_port, rcon_port: game_port + 3 };
}
