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
  ])('refuses %s: %s', (address, why) => {
    expect(refusedRange(address)).toBe(why);
  });

  it.each(['93.184.215.14', '172.32.0.1', '8.8.8.8', '2a00:1450:4001:82b::200e', '::ffff:8.8.8.8'])('lets %s through', (address) => {
    expect(refusedRange(address)).toBeUndefined();
  });

  it('checks literals directly and names through DNS, unless allowed', async () => {
    await expect(assertAllowedHost('10.0.0.1', false)).rejects.toThrow(/^Refused: 10\.0\.0\.1 is a private address\. .*ERP_ALLOW_PRIVATE_NETWORKS=true/);
    await expect(assertAllowedHost('localhost', false)).rejects.toThrow(/^Refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    await expect(assertAllowedHost('10.0.0.1', true)).resolves.toBeUndefined();
    await expect(assertAllowedHost('93.184.215.14', false)).resolves.toBeUndefined();
  });
});
