import { assertAllowedHost, refusedRange } from './network-guard.js';

describe('SSRF guard', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.8.9.10', 'a loopback address'],
    ['10.1.2.3', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.0.1', 'a private address'],
    ['169.254.169.254', 'a link-local address (e.g. a cloud metadata service)'],
    ['100.64.0.1', 'a shared (carrier-grade NAT) address'],
    ['0.0.0.0', 'an unspecified ("this network") address'],
    ['::1', 'a loopback address'],
    ['[::1]', 'a loopback address'],
    ['::', 'the unspecified address'],
    ['fe80::1', 'a link-local address'],
    ['fd12:3456::1', 'a private (unique local) address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['::ffff:7f00:1', 'a loopback address'],
    ['::ffff:a9fe:a9fe', 'a link-local address (e.g. a cloud metadata service)'],
    ['::ffff:0:10.0.0.1', 'a private address'],
    ['::127.0.0.1', 'a loopback address'],
    ['64:ff9b::7f00:1', 'a loopback address'],
    ['64:ff9b::10.1.2.3', 'a private address'],
    ['2002:a9fe:a9fe::1', 'a link-local address (e.g. a cloud metadata service)'],
    ['2002:c0a8:0101::', 'a private address'],
    ['0.1.2.3', 'an unspecified ("this network") address'],
    ['100.127.255.254', 'a shared (carrier-grade NAT) address'],
    ['192.0.0.8', 'an IETF protocol assignment address'],
    ['198.18.0.1', 'a benchmarking address'],
    ['198.19.255.255', 'a benchmarking address'],
    ['224.0.0.251', 'a multicast address'],
    ['239.255.255.250', 'a multicast address'],
    ['240.0.0.1', 'a reserved (or broadcast) address'],
    ['255.255.255.255', 'a reserved (or broadcast) address'],
    ['ff02::1', 'a multicast address'],
    ['fec0::1', 'a site-local address'],
    ['64:ff9b:1::a00:1', 'a local-use NAT64 address'],
  ])('refuses %s: %s', (address, why) => {
    expect(refusedRange(address)).toBe(why);
  });

  it.each([
    '93.184.215.14',
    '172.32.0.1',
    '8.8.8.8',
    '198.20.0.1',
    '100.128.0.1',
    '2a00:1450:4001:82b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('lets %s through', (address) => {
    expect(refusedRange(address)).toBeUndefined();
  });

  it('checks literals directly and names through DNS, unless allowed', async () => {
    await expect(assertAllowedHost('10.0.0.1', false)).rejects.toThrow(
      /^Refused: 10\.0\.0\.1 is a private address\. .*ERP_ALLOW_PRIVATE_NETWORKS=true/,
    );
    // A name's refusal says what it resolves to, never the address (the service's own network).
    await expect(assertAllowedHost('localhost', false)).rejects.toThrow(/^Refused: localhost resolves to a loopback address\. /);
    await expect(assertAllowedHost('10.0.0.1', true)).resolves.toBeUndefined();
    await expect(assertAllowedHost('93.184.215.14', false)).resolves.toBeUndefined();
  });
});
