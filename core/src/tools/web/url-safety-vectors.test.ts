/**
 * The original project's SSRF vectors (NousResearch/hermes-agent, tests/tools/test_url_safety.py)
 * against `checkUrl` (URL shape, metadata names, IP literals) and `blockedAddressReason` (every
 * address a name resolves to, checked at connect by `guardedLookup`: a vector "host resolves to X"
 * is the address X here). Deliberate differences are marked and explained.
 */
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../config/schema.js';
import { compileFakeIpRanges, isCidr } from './fake-ip-ranges.js';
import { blockedAddressReason, checkUrl, embeddedIpv4, UrlBlockedError } from './url-safety.js';

const refused = (url: string, allowPrivate = false): boolean => {
  try {
    checkUrl(url, allowPrivate);
    return false;
  } catch (err) {
    expect(err).toBeInstanceOf(UrlBlockedError);
    return true;
  }
};
const blocked = (ip: string, allowPrivate = false): boolean =>
  blockedAddressReason(ip, allowPrivate) !== null;

describe('URL shape (original is_safe_url / normalize_url_for_request)', () => {
  it.each([
    'ftp://example.com/file.txt',
    'example.com/path',
    'http://',
    '',
    'file:///etc/passwd',
    'not a url at all',
  ])('refuses %j', (url) => expect(refused(url)).toBe(true));

  it('accepts public http(s) URLs, upper-case schemes and a trailing dot', () => {
    expect(refused('https://example.com/image.png')).toBe(false);
    expect(refused('HTTPS://example.com/path')).toBe(false);
    expect(refused('https://example.com./path')).toBe(false);
  });

  it('encodes what it requests: non-ASCII paths, IDNA hosts, spaces in queries', () => {
    expect(checkUrl('https://wttr.in/Köln', false).href).toBe('https://wttr.in/K%C3%B6ln');
    expect(checkUrl('https://wttr.in/K%C3%B6ln', false).href).toBe('https://wttr.in/K%C3%B6ln');
    expect(checkUrl('https://münich.example/Köln', false).href).toBe(
      'https://xn--mnich-kva.example/K%C3%B6ln',
    );
    expect(checkUrl('https://example.com/r?next=https:// evil.example', false).href).toBe(
      'https://example.com/r?next=https://%20evil.example',
    );
    expect(checkUrl('https://example.com/page#Köln', false).href).toContain('%C3%B6');
  });
});

describe('metadata floor (original is_always_blocked_url): refused even with allow_private_urls', () => {
  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://169.254.42.1/',
    'http://100.100.100.200/latest/meta-data/',
    'http://[fd00:ec2::254]/latest/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://metadata.google.internal./',
    'http://[::ffff:169.254.169.254]/',
    'http://[::ffff:0:a9fe:a9fe]/',
  ])('%s', (url) => {
    expect(refused(url, true)).toBe(true);
    expect(refused(url, false)).toBe(true);
  });

  it.each([
    '::ffff:169.254.169.254%eth0',
    '::ffff:0:a9fe:a9fe',
    '::ffff:100.100.100.200',
    '169.254.169.254',
    'fd00:ec2::254',
  ])('a name resolving to %s is refused with private URLs allowed', (ip) => {
    expect(blockedAddressReason(ip, true)).toMatch(/cloud metadata address \(always refused\)/);
  });

  it('lets ordinary private addresses through when allowed (only the floor stays)', () => {
    expect(blocked('192.168.1.1', true)).toBe(false);
    expect(blocked('198.18.23.183', true)).toBe(false);
    expect(refused('http://127.0.0.1:8080/', true)).toBe(false);
    expect(refused('http://100.64.0.1/', true)).toBe(false);
    expect(refused('http://93.184.216.34/', true)).toBe(false);
  });
});

describe('private addresses (original _is_blocked_ip and resolution vectors)', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '::1',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.1',
    '100.64.0.1',
    '198.18.0.23',
    'fd12::1',
    '::ffff:169.254.169.254',
    'fe80::1%eth0',
    '::ffff:0:c612:58', // 198.18.0.88, IPv4-translated
    '::ffff:0:a00:1', // 10.0.0.1, IPv4-translated
  ])('refuses %s', (ip) => expect(blocked(ip)).toBe(true));

  it.each(['93.184.216.34', '100.0.0.1', '2606:4700::1'])('allows %s', (ip) =>
    expect(blocked(ip)).toBe(false),
  );

  it('fails closed on an address it cannot read', () => {
    expect(blockedAddressReason('not-an-ip%garbage', false)).toMatch(/not an IP address/);
    expect(blockedAddressReason('not-an-ip%garbage', true)).toMatch(/not an IP address/);
  });

  it('refuses IP-literal URLs of private hosts', () => {
    expect(refused('http://[::1]:8080/')).toBe(true);
    expect(refused('http://[fe80::1%25eth0]/')).toBe(true);
    expect(refused('http://10.0.0.1/')).toBe(true);
  });

  it('reads the IPv4 address inside an IPv4-translated IPv6 address', () => {
    expect(embeddedIpv4('::ffff:0:a9fe:a9fe')).toBe('169.254.169.254');
    expect(embeddedIpv4('::ffff:0:c612:58')).toBe('198.18.0.88');
  });

  // Deliberate difference: the original exempts one named host (multimedia.nt.qq.com.cn over
  // https) from the private-address check because it resolves into 198.18.0.0/15 on some
  // networks. We make no per-host exceptions: a name that resolves to a private address is
  // refused whoever owns it, and `web.allow_private_urls` is the one switch for such networks.
  it('makes no exception for a named host that resolves to a private address', () => {
    expect(refused('https://multimedia.nt.qq.com.cn/download?id=123')).toBe(false); // the name itself is fine …
    expect(blocked('198.18.0.23')).toBe(true); // … but the address it resolves to there is refused
  });
});

describe('declared fake-ip blocks (original TestDeclaredFakeIpSentinelRanges)', () => {
  const declared = compileFakeIpRanges(['198.18.0.0/15']).list;

  it('lets a declared block through, before the request and at connect time', () => {
    expect(blockedAddressReason('198.18.1.125', false, declared)).toBeNull();
    expect(blockedAddressReason('198.18.0.55', false, declared)).toBeNull();
    expect(blockedAddressReason('::ffff:0:c612:58', false, declared)).toBeNull(); // 198.18.0.88, translated
    expect(refused('https://198.18.0.1/', false)).toBe(true);
    expect(checkUrl('https://198.18.0.1/', false, declared).hostname).toBe('198.18.0.1');
  });

  it('excuses only the declared block: private answers and the metadata floor stay refused', () => {
    expect(blockedAddressReason('192.168.99.99', false, declared)).toMatch(/private/);
    expect(blockedAddressReason('169.254.169.254', false, declared)).toMatch(/always refused/);
    expect(blockedAddressReason('::ffff:0:a9fe:a9fe', true, declared)).toMatch(/always refused/);
    expect(blockedAddressReason('198.18.0.23', false)).toMatch(/private or reserved/); // undeclared again
  });

  it.each([
    ['10.0.0.0/8', '10.0.0.5'],
    ['127.0.0.0/8', '127.0.0.1'],
    ['100.64.0.0/10', '100.64.0.1'],
    ['fc00::/7', 'fd00::1'],
    ['0.0.0.0/0', '192.168.1.1'],
    ['::/0', '::1'],
  ])('ignores a declaration of reserved space (%s) and keeps the legitimate sibling', (entry, ip) => {
    const r = compileFakeIpRanges([entry, '198.18.0.0/15']);
    expect(r.accepted).toEqual(['198.18.0.0/15']);
    expect(r.ignored.map((x) => x.entry)).toEqual([entry]);
    expect(blockedAddressReason(ip, false, r.list)).not.toBeNull();
    expect(blockedAddressReason('198.18.1.125', false, r.list)).toBeNull();
  });

  it('refuses a malformed entry in the configuration, naming the key', () => {
    expect(isCidr('198.18.0.0/15')).toBe(true);
    for (const bad of ['198.18.0.0', '198.18.0.0/33', 'fake/15', '::/129'])
      expect(isCidr(bad), bad).toBe(false);
    const parsed = ConfigSchema.safeParse({ web: { fake_ip_ranges: ['198.18.0.0/15', 'nope'] } });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toMatch(
      /fake_ip_ranges.*address block like 198\.18\.0\.0\/15/,
    );
  });
});
