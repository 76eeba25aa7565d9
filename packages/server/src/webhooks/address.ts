import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** A URL refused because of where it leads; the message says why, for the admin who gave it. */
export class WebhookAddressError extends Error {}

export interface Destination {
  address: string;
  family: 4 | 6;
}

/**
 * Where a webhook URL leads, checked: every address its host resolves to must be public unicast (not
 * loopback, link-local, private, carrier-grade NAT, unique-local, multicast or reserved) unless private
 * destinations are allowed. Checked again at each send and the connection made to the address checked,
 * so that a name re-pointed after the check (DNS rebinding) cannot reach inside.
 */
export async function checkDestination(url: URL, allowPrivate: boolean): Promise<Destination> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebhookAddressError(`the URL must be http or https, not ${url.protocol.replace(':', '')}`);
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
      const range = ipaddr.process(address).range();
      if (range !== 'unicast') {
        throw new WebhookAddressError(`${host} resolves to ${address} (${range}): webhooks go to public addresses only, unless GARRISON_WEBHOOK_ALLOW_PRIVATE=1`);
      }
    }
  }
  return { address: found[0]!.address, family: found[0]!.family === 6 ? 6 : 4 };
}
