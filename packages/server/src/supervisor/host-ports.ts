import { createSocket } from 'node:dgram';
import { ApiError } from '@garrison/core';

/** True when nothing on this host holds UDP `port` on any address. */
function udpPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createSocket({ type: 'udp4', reuseAddr: false });
    socket.once('error', () => resolve(false));
    socket.bind(port, '0.0.0.0', () => socket.close(() => resolve(true)));
  });
}

/** The ports to check, each once: a game that takes remote admin on its game port has one. */
const portsOf = (ports: { game_port: number; rcon_port: number }) =>
  ports.rcon_port === ports.game_port ? { game_port: ports.game_port } : ports;

/** Each of the ports another process of this host holds, said as `game_port 2302`. */
export async function hostPortsInUse(ports: { game_port: number; rcon_port: number }): Promise<string[]> {
  const held: string[] = [];
  for (const [name, port] of Object.entries(portsOf(ports))) if (!(await udpPortFree(port))) held.push(`${name} ${port}`);
  return held;
}

/** Before a start: the game's ports (UDP, as the game and its remote admin use them) must be free on the host. */
export async function assertHostPortsFree(ports: { game_port: number; rcon_port: number }): Promise<void> {
  const [held] = await hostPortsInUse(ports);
  if (held) throw new ApiError('PORT_IN_USE', `${held} is in use on this host by another process`);
}
