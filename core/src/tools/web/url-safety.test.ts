/** The SSRF guard: which addresses and URLs `web_extract` may reach. */
import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { blockedAddressReason, checkUrl, embeddedIpv4, guardedLookup } from './url-safety.js';

describe('blockedAddressReason', () => {
  it('lets public unicast through and refuses internal addresses unless allowed', () => {
    for (const ok of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '93.184.216.34'])
      expect(blockedAddressReason(ok, false)).toBeNull();
    for (const bad of [
      '127.0.0.1',
      '10.0.0.5',
      '172.16.3.4',
      '192.168.1.1',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fc00::1',
      'fe80::1%eth0',
      '[::1]',
      '::ffff:127.0.0.1',
      '::ffff:c0a8:101',
      '64:ff9b::a00:1',
      '2002:7f00:1::',
    ]) {
      expect(blockedAddressReason(bad, false), bad).toMatch(/loopback, private or reserved/);
      expect(blockedAddressReason(bad, true), bad).toBeNull();
    }
  });

  it('always refuses link-local and cloud metadata addresses, even when private URLs are allowed', () => {
    for (const meta of [
      '169.254.169.254',
      '169.254.170.2',
      '100.100.100.200',
      'fd00:ec2::254',
      '::ffff:169.254.169.254',
    ])
      expect(blockedAddressReason(meta, true), meta).toMatch(/cloud metadata address \(always refused\)/);
  });

  it('finds the IPv4 address inside mapped, NAT64 and 6to4 IPv6 addresses', () => {
    expect(embeddedIpv4('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(embeddedIpv4('64:ff9b::808:808')).toBe('8.8.8.8');
    expect(embeddedIpv4('2002:c0a8:0101::')).toBe('192.168.1.1');
    expect(embeddedIpv4('2606:4700::1111')).toBeNull();
    expect(embeddedIpv4('8.8.8.8')).toBeNull();
  });
});

describe('checkUrl', () => {
  it('accepts http(s) URLs with public or unresolved hosts', () => {
    expect(checkUrl('https://example.com/a?b=1', false).hostname).toBe('example.com');
    expect(checkUrl(' http://8.8.8.8/ ', false).hostname).toBe('8.8.8.8');
  });

  it('refuses other schemes, credentials, metadata hosts, internal IP literals (any spelling)', () => {
    expect(() => checkUrl('file:///etc/passwd', true)).toThrow(
      'only http and https URLs can be fetched (got file)',
    );
    expect(() => checkUrl('ftp://example.com/', true)).toThrow(/got ftp/);
    expect(() => checkUrl('http://user:pw@example.com/', true)).toThrow(/user name or password/);
    expect(() => checkUrl('http://metadata.google.internal./x', true)).toThrow(/cloud metadata host/);
    expect(() => checkUrl('http://2130706433/', false)).toThrow(/127\.0\.0\.1 is a loopback/);
    expect(() => checkUrl('http://0x7f.1/', false)).toThrow(/127\.0\.0\.1 is a loopback/);
    expect(() => checkUrl('http://[::ffff:7f00:1]/', false)).toThrow(/is a loopback/);
    expect(() => checkUrl('nonsense', false)).toThrow('"nonsense" is not a valid absolute URL');
  });
});

describe('guardedLookup', () => {
  const resolve = (host: string, allow: boolean, all: boolean) =>
    new Promise<{ err: NodeJS.ErrnoException | null; result: unknown }>((done) =>
      guardedLookup(allow)(host, { all }, (err, address, family) =>
        done({ err, result: all ? address : { address, family } }),
      ),
    );

  it('refuses a name that resolves to loopback, with a message naming host and address', async () => {
    const { err } = await resolve('localhost', false, false);
    expect(err?.code).toBe('EHERMESBLOCKED');
    expect(err?.message).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1) is a loopback/);
  });

  it('hands the checked addresses to the socket when allowed (single and all forms)', async () => {
    const one = await resolve('localhost', true, false);
    expect(one.err).toBeNull();
    expect(one.result).toMatchObject({ address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) });
    const all = await resolve('localhost', true, true);
    expect((all.result as LookupAddress[]).length).toBeGreaterThan(0);
  });
});
