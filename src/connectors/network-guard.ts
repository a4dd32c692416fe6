// SSRF guard: the ERP's base URL is chosen by a customer, so the service must not be steered at its own
// network (loopback, link-local such as cloud metadata, private ranges). Checked when a connection is
// saved and again on every connect (the DNS answer of that moment), unless the operator allows it.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const RANGES: Array<[string, number, 'ipv4' | 'ipv6', string]> = [
  ['0.0.0.0', 8, 'ipv4', 'an unspecified ("this network") address'],
  ['127.0.0.0', 8, 'ipv4', 'a loopback address'],
  ['10.0.0.0', 8, 'ipv4', 'a private address'],
  ['172.16.0.0', 12, 'ipv4', 'a private address'],
  ['192.168.0.0', 16, 'ipv4', 'a private address'],
  ['100.64.0.0', 10, 'ipv4', 'a shared (carrier-grade NAT) address'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local address (e.g. a cloud metadata service)'],
  ['::', 128, 'ipv6', 'the unspecified address'],
  ['::1', 128, 'ipv6', 'a loopback address'],
  ['fc00::', 7, 'ipv6', 'a private (unique local) address'],
  ['fe80::', 10, 'ipv6', 'a link-local address'],
];

const lists = RANGES.map(([network, prefix, type, label]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, type);
  return { list, type, label };
});

/** Why an address is refused, or undefined when it is a public address. */
export function refusedRange(address: string): string | undefined {
  let ip = address.replace(/^\[|\]$/g, '');
  // IPv4-mapped IPv6 (::ffff:127.0.0.1, or as URLs write it ::ffff:7f00:1) is the IPv4 address in disguise.
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(ip);
  if (dotted) ip = dotted[1];
  else if (hex) ip = [parseInt(hex[1], 16) >> 8, parseInt(hex[1], 16) & 255, parseInt(hex[2], 16) >> 8, parseInt(hex[2], 16) & 255].join('.');
  const type = isIP(ip) === 4 ? 'ipv4' : isIP(ip) === 6 ? 'ipv6' : undefined;
  if (!type) return 'not an IP address';
  return lists.find((entry) => entry.type === type && entry.list.check(ip, type))?.label;
}

export class AddressRefusedError extends Error {
  readonly code = 'ERP_ADDRESS_REFUSED';
}

export function refusal(host: string, address: string, why: string): AddressRefusedError {
  const resolved = host === address ? `${host} is` : `${host} resolves to ${address},`;
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
