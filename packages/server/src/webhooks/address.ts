import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** A URL refused because of where it leads; the message says why, for the admin who gave it. */
export class WebhookAddressError extends Error {}

export interface Destination {
  address: string;
  family: 4 | 6;
}

/** IPv6 prefixes whose last 32 bits are the IPv4 address the packet ends up at. */
const EMBEDDING_IPV4 = [
  ipaddr.parseCIDR('::/96'), // IPv4-compatible (deprecated; some stacks still send it to the IPv4 host)
  ipaddr.parseCIDR('::ffff:0:0:0/96'), // IPv4-translated (SIIT)
  ipaddr.parseCIDR('64:ff9b::/96'), // NAT64's well-known prefix: a DNS64 network gives every IPv4-only host such an address
];

/**
 * An address's range as ipaddr.js names it, an IPv6 address that carries an IPv4 one judged by that:
 * `::7f00:1` is 127.0.0.1 in disguise, and a NAT64 address of a public host is as public as the host.
 * IPv4-mapped ones ipaddr.process already turns into IPv4. 6to4 and Teredo stay refused whole (ipaddr.js
 * names them so): the IPv4 address in them is a relay's or a tunnel's end, not the destination.
 */
function rangeOf(address: string): string {
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.range();
  const v6 = ip as ipaddr.IPv6;
  if (v6.range() === 'unspecified' || v6.range() === 'loopback') return v6.range();
  if (EMBEDDING_IPV4.some((prefix) => v6.match(prefix))) {
    const bytes = v6.toByteArray().slice(12);
    return new ipaddr.IPv4(bytes).range();
  }
  return v6.range();
}

/**
 * Where a webhook URL leads, checked: every address its host resolves to must be public unicast (not
 * loopback, link-local, private, carrier-grade NAT, unique-local, multicast or reserved) unless private
 * destinations are allowed. Checked again at each send and the connection made to the address checked,
 * so that a name re-pointed after the check (DNS rebinding) cannot reach inside.
 */
export async function checkDestination(url: URL, allowPrivate: boolean): Promise<Destination> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new WebhookAddressError(`the URL must be http or https, not ${url.protocol.replace(':', '')}`);
  if (url.username || url.password) throw new WebhookAddressError('the URL must not carry a user name or password');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let found: { address: string; family: number }[];
  try {
    found = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
  } catch (err) {
    throw new WebhookAddressError(`${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (!found.length) throw new WebhookAddressError(`${host} does not resolve`);
  if (!allowPrivate) {
    for (const { address } of found) {
      const range = rangeOf(address);
      if (range !== 'unicast') {
        throw new WebhookAddressError(
          `${host} resolves to ${address} (${range}): webhooks go to public addresses only, unless GARRISON_WEBHOOK_ALLOW_PRIVATE=1`,
        );
      }
    }
  }
  return { address: found[0].address, family: found[0].family === 6 ? 6 : 4 };
}
