import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** An address as ipaddr.js reads it (an IPv4-mapped IPv6 one as IPv4), or null when it is none. */
function parse(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  // A proxy may write `[2001:db8::1]:4711` or `192.0.2.1:4711`; the port says nothing of who the client is.
  const bare =
    /^\[([^\]]+)\](?::\d+)?$/.exec(address)?.[1] ?? (/^[\d.]+:\d+$/.test(address) ? address.slice(0, address.lastIndexOf(':')) : address);
  return ipaddr.isValid(bare) ? ipaddr.process(bare) : null;
}

/** A GARRISON_TRUST_PROXY entry (an address, or a range in CIDR notation) as a range; throws on anything else. */
export function trustedRange(entry: string): Range {
  if (entry.includes('/')) {
    const [ip, bits] = ipaddr.parseCIDR(entry);
    return ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96
      ? [(ip as ipaddr.IPv6).toIPv4Address(), bits - 96]
      : [ip, bits];
  }
  const ip = parse(entry);
  if (!ip) throw new Error(`${JSON.stringify(entry)} is not an address or a range`);
  return [ip, ip.kind() === 'ipv4' ? 32 : 128];
}

/**
 * Who the client is. The direct peer, unless it is one of the trusted proxies: then X-Forwarded-For is
 * read from its right end (each proxy appends the address it got the request from), past every trusted
 * hop, and the first address that is not a trusted proxy is the client. Anything to its left was written
 * by that client and proves nothing. An entry that is not an address ends the walk at the proxy that
 * passed it on. Without trusted proxies the header is never read: anyone can send one.
 */
/** Whether a direct peer is one of the trusted proxies. */
export function isTrustedProxy(peer: string | undefined, trusted: readonly Range[]): boolean {
  const ip = trusted.length && peer ? parse(peer) : null;
  return ip !== null && trusted.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits));
}

function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trusted: readonly Range[]): string {
  const direct = peer ?? '';
  const isTrusted = (address: ipaddr.IPv4 | ipaddr.IPv6) =>
    trusted.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
  const peerIp = parse(direct);
  if (!trusted.length || !peerIp || !isTrusted(peerIp) || !forwardedFor) return direct;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  let client = direct;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parse(hops[i]);
    if (!hop) break;
    client = hop.toString();
    if (!isTrusted(hop)) break;
  }
  return client;
}

/** The client's address of a raw request (a WebSocket's upgrade) as `ctx.ip` has it for the others. */
export const clientAddressOf = (req: IncomingMessage, trusted: readonly Range[]): string =>
  clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trusted);

/**
 * Sets `ctx.ip` to the client's address before anything reads it (the login limit, a key's address
 * ranges, a session's "where from"). Koa's own `proxy` switch would believe X-Forwarded-For from anyone.
 */
export function clientAddressMiddleware(trusted: readonly Range[]): Middleware {
  return async (ctx, next) => {
    ctx.request.ip = clientAddressOf(ctx.req, trusted);
    await next();
  };
}
