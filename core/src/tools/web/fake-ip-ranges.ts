/**
 * `web.fake_ip_ranges`: address blocks a local proxy answers DNS with (the "fake-ip" mode of TUN
 * proxies such as Clash or Surge, usually 198.18.0.0/15). On such a machine every host name
 * resolves into the block and the proxy makes the real connection, so the SSRF guard would refuse
 * every fetch. A declared block is let through — only that block: loopback, RFC 1918 private,
 * CGNAT, unique-local, link-local and unspecified space can never be declared (an entry that
 * overlaps them is ignored, it does not widen the guard), and the cloud-metadata floor stays.
 */
import { BlockList, isIP } from 'node:net';

/** Blocks that a declaration may not overlap. */
const RESERVED: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
];

/** The compiled declaration: the accepted blocks, and the entries ignored with the reason. */
export interface FakeIpRanges {
  list: BlockList;
  accepted: string[];
  ignored: Array<{ entry: string; why: string }>;
}

/** An address as a number (IPv4: 32 bits, IPv6: 128 bits), or null when it is not one. */
function toBig(address: string): bigint | null {
  const family = isIP(address);
  if (family === 4) return address.split('.').reduce((acc, b) => (acc << 8n) | BigInt(Number(b)), 0n);
  if (family !== 6) return null;
  let text = address.toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = toBig(v4[1]!)!;
    text = `${text.slice(0, -v4[1]!.length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/** `[first, last]` of a CIDR block, or null when `cidr` is not `address/bits`. */
function cidrRange(
  cidr: string,
): { family: 4 | 6; address: string; bits: number; first: bigint; last: bigint } | null {
  const m = /^([^/\s]+)\/(\d{1,3})$/.exec(cidr.trim());
  if (!m) return null;
  const address = m[1]!;
  const family = isIP(address);
  const bits = Number(m[2]);
  if (family === 0 || bits > (family === 4 ? 32 : 128)) return null;
  const width = BigInt(family === 4 ? 32 : 128);
  const hostBits = width - BigInt(bits);
  const base = (toBig(address)! >> hostBits) << hostBits;
  return { family: family as 4 | 6, address, bits, first: base, last: base + (1n << hostBits) - 1n };
}

/**
 * True when `cidr` is a valid `address/bits` block (for config validation).
 */
export function isCidr(cidr: string): boolean {
  return cidrRange(cidr) !== null;
}

/**
 * Compiles `web.fake_ip_ranges` (see the module doc).
 * @param entries CIDR blocks (`198.18.0.0/15`); an invalid one is ignored with the reason too.
 */
export function compileFakeIpRanges(entries: readonly string[]): FakeIpRanges {
  const out: FakeIpRanges = { list: new BlockList(), accepted: [], ignored: [] };
  for (const entry of entries) {
    const r = cidrRange(entry);
    if (!r) {
      out.ignored.push({ entry, why: 'not an address/bits block' });
      continue;
    }
    const clash = RESERVED.map(([a, b]) => ({ text: `${a}/${b}`, range: cidrRange(`${a}/${b}`)! })).find(
      (x) => x.range.family === r.family && x.range.first <= r.last && r.first <= x.range.last,
    );
    if (clash) {
      out.ignored.push({ entry, why: `overlaps ${clash.text}, which can never be declared` });
      continue;
    }
    out.list.addSubnet(r.address, r.bits, r.family === 4 ? 'ipv4' : 'ipv6');
    out.accepted.push(entry);
  }
  return out;
}
