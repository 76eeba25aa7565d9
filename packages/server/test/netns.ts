import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, connect, type AddressInfo, type Server } from 'node:net';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Another host on this machine: a network namespace joined to this one by a veth pair, so that what
 * crosses to it goes through a real network stack (its own interfaces, addresses and routes) rather
 * than loopback. Services of this host's loopback (MariaDB, NATS) are reached from inside through relays
 * on this side's veth address. Null where the machine does not allow it (not root, no `ip`).
 */
export interface OtherHost {
  /** The other host's address, which this side reaches it at. */
  address: string;
  /** A command run on the other host. */
  command(command: string, args: string[]): [string, string[]];
  /** The address inside the other host at which this host's loopback port `port` answers. */
  relay(port: number): Promise<string>;
  remove(): Promise<void>;
}

export async function otherHost(): Promise<OtherHost | null> {
  if (process.getuid?.() !== 0) return null;
  const id = randomBytes(3).toString('hex');
  const ns = `garrison-${id}`;
  const [outside, inside] = [`gv${id}o`, `gv${id}i`];
  const subnet = `10.${200 + (parseInt(id.slice(0, 2), 16) % 50)}.${parseInt(id.slice(2, 4), 16) % 250}`;
  const [here, there] = [`${subnet}.1`, `${subnet}.2`];
  const relays: Server[] = [];
  const remove = async () => {
    for (const relay of relays) relay.close();
    await run('ip', ['netns', 'del', ns]).catch(() => {});
    await run('ip', ['link', 'del', outside]).catch(() => {});
  };
  try {
    await run('ip', ['netns', 'add', ns]);
    await run('ip', ['link', 'add', outside, 'type', 'veth', 'peer', 'name', inside]);
    await run('ip', ['link', 'set', inside, 'netns', ns]);
    await run('ip', ['addr', 'add', `${here}/30`, 'dev', outside]);
    await run('ip', ['link', 'set', outside, 'up']);
    await run('ip', ['netns', 'exec', ns, 'ip', 'addr', 'add', `${there}/30`, 'dev', inside]);
    await run('ip', ['netns', 'exec', ns, 'ip', 'link', 'set', inside, 'up']);
    await run('ip', ['netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up']);
  } catch {
    await remove();
    return null;
  }
  return {
    address: there,
    command: (command, args) => ['ip', ['netns', 'exec', ns, command, ...args]],
    relay: async (port) => {
      const relay = createServer((socket) => {
        const upstream = connect(port, '127.0.0.1');
        socket.pipe(upstream).pipe(socket);
        const end = () => (socket.destroy(), upstream.destroy());
        socket.on('error', end).on('close', end);
        upstream.on('error', end).on('close', end);
      });
      relays.push(relay);
      await new Promise<void>((resolve, reject) => relay.once('error', reject).listen(0, here, () => resolve()));
      return `${here}:${(relay.address() as AddressInfo).port}`;
    },
    remove,
  };
}
