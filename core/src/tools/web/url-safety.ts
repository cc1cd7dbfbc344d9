/**
 * SSRF guard of `web_extract` (the original's tools/url_safety.py): which URLs and addresses a
 * page fetch may reach.
 *
 * - Only `http:` and `https:` URLs, without user:password.
 * - Cloud metadata endpoints are always refused: the hostnames `metadata.google.internal` and
 *   `metadata.goog`, all of 169.254.0.0/16 (link-local, AWS/GCP/Azure metadata), 100.100.100.200
 *   (Alibaba) and fd00:ec2::254 (AWS IPv6) — even with `web.allow_private_urls: true`.
 * - Unless `web.allow_private_urls` is true, every address that is not public unicast is refused:
 *   loopback, RFC 1918 private, CGNAT 100.64.0.0/10, "this network" 0.0.0.0/8, IETF/benchmark/
 *   documentation ranges, multicast, reserved 240.0.0.0/4, broadcast; IPv6 loopback/unspecified,
 *   unique-local fc00::/7, link-local fe80::/10, multicast, documentation, discard. IPv4-mapped
 *   (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96) and 6to4
 *   (2002::/16) addresses are judged by the IPv4 address they carry.
 *
 * - Addresses inside a block of `web.fake_ip_ranges` (a local proxy's fake-ip DNS answers; see
 *   fake-ip-ranges.ts) are let through; the metadata floor still applies to them.
 *
 * Host names are checked where the connection is made (`guardedLookup`, the `lookup` option of
 * `http.request`): every address the name resolves to must pass, and the socket connects to one
 * of those checked addresses, so DNS rebinding between check and connect is closed. IP literals
 * (which skip `lookup`) are checked by `checkUrl` before each request, redirects included.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** A URL or address the guard refuses; `message` says what and why. */
export class UrlBlockedError extends Error {
  override name = 'UrlBlockedError';
}

const ALWAYS_BLOCKED_HOSTS = new Set(['metadata.google.internal', 'metadata.goog']);

const alwaysBlocked = new BlockList();
alwaysBlocked.addSubnet('169.254.0.0', 16, 'ipv4');
alwaysBlocked.addAddress('100.100.100.200', 'ipv4');
alwaysBlocked.addAddress('fd00:ec2::254', 'ipv6');

const privateNets = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  privateNets.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['2001::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  privateNets.addSubnet(net, bits, 'ipv6');

/** Expands an IPv6 address to its 8 groups (numbers), or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().split('%')[0]!;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const b = v4[1]!.split('.').map(Number);
    text = `${text.slice(0, -v4[1]!.length)}${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const fill = tail === undefined ? 0 : 8 - h.length - t.length;
  const groups = [...h, ...Array<string>(Math.max(fill, 0)).fill('0'), ...t].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? groups
    : null;
}

/** The IPv4 address an IPv6 address carries (mapped, translated, NAT64, 6to4, compatible), else null. */
export function embeddedIpv4(address: string): string | null {
  if (isIP(address) !== 6) return null;
  const g = ipv6Groups(address);
  if (!g) return null;
  const v4 = (hi: number, lo: number): string => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number): boolean => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return v4(g[6]!, g[7]!); // ::ffff:a.b.c.d
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return v4(g[6]!, g[7]!); // ::ffff:0:a.b.c.d (RFC 2765)
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(g[6]!, g[7]!); // 64:ff9b::/96
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!); // 6to4
  if (zeros(0, 6) && (g[6]! !== 0 || g[7]! > 1)) return v4(g[6]!, g[7]!); // ::a.b.c.d (deprecated)
  return null;
}

/**
 * Why an IP address may not be contacted, or null when it may.
 * @param address an IPv4 or IPv6 literal (brackets and `%zone` allowed).
 * @param allowPrivate `web.allow_private_urls`: lets private/loopback/reserved through, never metadata.
 * @param fakeIps the compiled `web.fake_ip_ranges` (`compileFakeIpRanges(...).list`): declared
 *   blocks pass, never metadata.
 */
export function blockedAddressReason(
  address: string,
  allowPrivate: boolean,
  fakeIps?: BlockList,
): string | null {
  const ip = address.replace(/^\[|\]$/g, '').split('%')[0]!;
  const family = isIP(ip);
  if (family === 0) return `"${address}" is not an IP address`;
  const inner = family === 6 ? embeddedIpv4(ip) : null;
  const [addr, type] = inner
    ? [inner, 'ipv4' as const]
    : [ip, family === 4 ? ('ipv4' as const) : ('ipv6' as const)];
  if (alwaysBlocked.check(addr, type))
    return `${address} is a link-local / cloud metadata address (always refused)`;
  if (fakeIps?.check(addr, type)) return null;
  if (!allowPrivate && privateNets.check(addr, type))
    return `${address} is a loopback, private or reserved address (set web.allow_private_urls: true to allow)`;
  return null;
}

/**
 * Parses and checks a URL before a request: scheme http/https, no credentials, host not a
 * metadata name, an IP-literal host allowed by `blockedAddressReason` (same `allowPrivate` and
 * `fakeIps`). Host names are resolved
 * and checked later, at connect (`guardedLookup`).
 * @throws UrlBlockedError naming the problem (also for a malformed URL).
 */
export function checkUrl(raw: string, allowPrivate: boolean, fakeIps?: BlockList): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UrlBlockedError(`"${raw}" is not a valid absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UrlBlockedError(`only http and https URLs can be fetched (got ${url.protocol.slice(0, -1)})`);
  if (url.username || url.password)
    throw new UrlBlockedError('URLs with a user name or password are refused');
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  if (host === '') throw new UrlBlockedError(`"${raw}" has no host`);
  if (ALWAYS_BLOCKED_HOSTS.has(host))
    throw new UrlBlockedError(`${host} is a cloud metadata host (always refused)`);
  if (isIP(host)) {
    const reason = blockedAddressReason(host, allowPrivate, fakeIps);
    if (reason) throw new UrlBlockedError(`refused: ${reason}`);
  }
  return url;
}

/**
 * A `lookup` for `http.request` / `net.connect` that resolves the name, refuses it when ANY of its
 * addresses is blocked (`blockedAddressReason`), and hands only checked addresses to the socket.
 * The error is a `UrlBlockedError` (code `EHERMESBLOCKED`) naming the host and address.
 */
export function guardedLookup(allowPrivate: boolean, fakeIps?: BlockList): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      if (addresses.length === 0)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      for (const a of addresses) {
        const reason = blockedAddressReason(a.address, allowPrivate, fakeIps);
        if (reason) {
          const e = Object.assign(new UrlBlockedError(`refused: ${hostname} resolves to ${reason}`), {
            code: 'EHERMESBLOCKED',
          });
          return callback(e, '', 0);
        }
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
