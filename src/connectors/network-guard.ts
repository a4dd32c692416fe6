// SSRF guard: the ERP's base URL is chosen by a customer, so the service must not be steered at its own
// network (loopback, link-local such as cloud metadata, private ranges). Checked when a connection is
// saved and again on every connect (the DNS answer of that moment), unless the operator allows it.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const PRIVATE = 'a private address';
const RANGES: Array<[string, number, 'ipv4' | 'ipv6', string]> = [
  ['0.0.0.0', 8, 'ipv4', 'an unspecified ("this network") address'],
  ['127.0.0.0', 8, 'ipv4', 'a loopback address'],
  ['10.0.0.0', 8, 'ipv4', PRIVATE],
  ['172.16.0.0', 12, 'ipv4', PRIVATE],
  ['192.168.0.0', 16, 'ipv4', PRIVATE],
  ['100.64.0.0', 10, 'ipv4', 'a shared (carrier-grade NAT) address'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local address (e.g. a cloud metadata service)'],
  ['192.0.0.0', 24, 'ipv4', 'an IETF protocol assignment address'],
  ['192.0.2.0', 24, 'ipv4', 'a documentation address'],
  ['198.51.100.0', 24, 'ipv4', 'a documentation address'],
  ['203.0.113.0', 24, 'ipv4', 'a documentation address'],
  ['192.88.99.0', 24, 'ipv4', 'a 6to4 relay address'],
  ['198.18.0.0', 15, 'ipv4', 'a benchmarking address'],
  ['224.0.0.0', 4, 'ipv4', 'a multicast address'],
  ['240.0.0.0', 4, 'ipv4', 'a reserved (or broadcast) address'],
  ['::', 128, 'ipv6', 'the unspecified address'],
  ['::1', 128, 'ipv6', 'a loopback address'],
  ['fc00::', 7, 'ipv6', 'a private (unique local) address'],
  ['fe80::', 10, 'ipv6', 'a link-local address'],
  ['fec0::', 10, 'ipv6', 'a site-local address'],
  ['ff00::', 8, 'ipv6', 'a multicast address'],
  ['100::', 64, 'ipv6', 'a discard-only address'],
  ['2001:db8::', 32, 'ipv6', 'a documentation address'],
  ['64:ff9b:1::', 48, 'ipv6', 'a local-use NAT64 address'],
  ['2001::', 32, 'ipv6', 'a Teredo tunnel address'],
];

const lists = RANGES.map(([network, prefix, type, label]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, type);
  return { list, type, label };
});

/** The eight 16-bit groups of an IPv6 address (a trailing dotted quad included). */
function groupsOf(ip: string): number[] {
  let text = ip;
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number);
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  return tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const dotted = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.');

/**
 * The IPv4 address an IPv6 address carries, where it is one in disguise: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d), 6to4 (2002:aabb:ccdd::).
 */
function embeddedIpv4(ip: string): string | undefined {
  const g = groupsOf(ip);
  if (g.length !== 8 || g.some((n) => Number.isNaN(n))) return undefined;
  const zero = (from: number, to: number) => g.slice(from, to).every((n) => n === 0);
  if (zero(0, 5) && g[5] === 0xffff) return dotted(g[6], g[7]);
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return dotted(g[6], g[7]);
  if (zero(0, 6) && (g[6] !== 0 || g[7] > 1)) return dotted(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return dotted(g[6], g[7]);
  if (g[0] === 0x2002) return dotted(g[1], g[2]);
  return undefined;
}

/** Why an address is refused, or undefined when it is a public address. */
export function refusedRange(address: string): string | undefined {
  let ip = address.replace(/^\[|\]$/g, '');
  if (isIP(ip) === 6) ip = embeddedIpv4(ip) ?? ip;
  const type = isIP(ip) === 4 ? 'ipv4' : isIP(ip) === 6 ? 'ipv6' : undefined;
  if (!type) return 'not an IP address';
  return lists.find((entry) => entry.type === type && entry.list.check(ip, type))?.label;
}

export class AddressRefusedError extends Error {
  readonly code = 'ERP_ADDRESS_REFUSED';
}

/** The message names what the host is, never the address a name resolved to (that is the service's network). */
export function refusal(host: string, address: string, why: string): AddressRefusedError {
  const resolved = host === address ? `${host} is` : `${host} resolves to`;
  return new AddressRefusedError(
    `Refused: ${resolved} ${why}. The service does not connect to its own networks (SSRF protection); ` +
      'the operator can allow it with ERP_ALLOW_PRIVATE_NETWORKS=true.',
  );
}

/** A dns.lookup for sockets that fails when any address of the host is refused. */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return ((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error);
      if (!allowPrivate) {
        for (const { address } of addresses) {
          const why = refusedRange(address);
          if (why) return callback(refusal(hostname, address, why));
        }
      }
      if ((options as { all?: boolean }).all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  }) as LookupFunction;
}

/**
 * Checks a host before anything is stored or sent: an IP literal directly (sockets skip the lookup for
 * those), a name by resolving it. A name that does not resolve is not refused here (the connection
 * test reports DNS problems); it cannot reach anything either.
 */
export async function assertAllowedHost(host: string, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare)) {
    const why = refusedRange(bare);
    if (why) throw refusal(host, host, why);
    return;
  }
  const addresses = await new Promise<LookupAddress[]>((resolve) =>
    dnsLookup(bare, { all: true }, (error, found) => resolve(error ? [] : found)),
  );
  for (const { address } of addresses) {
    const why = refusedRange(address);
    if (why) throw refusal(host, address, why);
  }
}
