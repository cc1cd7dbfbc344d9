/**
 * Cloud metadata endpoints: the instance-credential services of AWS, GCP, Azure, Alibaba and
 * others (`169.254.169.254`, `fd00:ec2::254`, `metadata.google.internal`, `100.100.100.200`,
 * ECS's `169.254.170.2`), reached by any command (`curl`, `wget`, `nc`, `python3 -c "requests.get
 * (…)"`, bash's `/dev/tcp/…` redirects) with the host in any argument, URL or not, and in any IPv4
 * spelling the URL parser accepts (`2852039166`, `0xa9fea9fe`, `0251.0376.0251.0376`,
 * `[::ffff:169.254.169.254]`).
 *
 * Targets: the endpoint host.
 */
import { programName, type ShellAnalysis, type SimpleCommand } from '../shell/analyze.js';
import type { CommandRule } from './types.js';

/** The metadata hosts, as the WHATWG URL parser normalises them. */
const METADATA_HOSTS = new Set([
  '169.254.169.254',
  '169.254.170.2',
  '100.100.100.200',
  '[fd00:ec2::254]',
  '[::ffff:a9fe:a9fe]',
  '[::ffff:6464:64c8]',
  'metadata.google.internal',
  'metadata.google.internal.',
  'metadata.azure.com',
  'instance-data',
  'instance-data.ec2.internal',
]);

/** Short names that are metadata hosts only inside a URL (`http://metadata/computeMetadata/…`). */
const URL_ONLY_HOSTS = new Set(['metadata']);

/** A cheap test that a text may name a metadata host at all. */
const MAYBE =
  /169[.-]254|100\.100|metadata|fd00:ec2|instance-data|::ffff|0x[0-9a-f]{6,}|\b\d{9,10}\b|\b0\d{2,3}\.0|a9fe/i;

/** The metadata host a text names, or undefined. */
export function metadataHost(text: string): string | undefined {
  if (!MAYBE.test(text)) return undefined;
  for (const token of text.split(/[\s"'`=,;()<>{}|\\$]+/)) {
    if (!token) continue;
    const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(token);
    const tcp = /^\/dev\/(?:tcp|udp)\/([^/]+)/.exec(token);
    const candidate = tcp
      ? `http://${tcp[1]}/`
      : withScheme
        ? token.replace(/^[a-z][a-z0-9+.-]*:/i, 'http:')
        : `http://${token}`;
    let host: string;
    try {
      host = new URL(candidate).hostname.toLowerCase();
    } catch {
      continue;
    }
    if (METADATA_HOSTS.has(host)) return host;
    // wildcard DNS that answers with the address written in the name (nip.io, sslip.io …)
    if (/(?:^|[.-])169[.-]254[.-]169[.-]254(?:[.-]|$)|(?:^|[.-])a9fea9fe(?:[.-]|$)/.test(host)) return host;
    if (withScheme && URL_ONLY_HOSTS.has(host)) return host;
  }
  return undefined;
}

/** Every text of a command a host may be written in. */
function texts(cmd: SimpleCommand): string[] {
  const out = cmd.argv.map((w) => w.value);
  for (const a of cmd.assignments) out.push(a.value.value);
  for (const r of cmd.redirects) {
    if (r.target) out.push(r.target.value);
    if (r.text !== undefined) out.push(r.text);
  }
  return out;
}

/** The commands of an analysis whose output goes into another command (computed once per line). */
const PIPED_ON = new WeakMap<ShellAnalysis, Set<SimpleCommand>>();
function pipedOn(analysis: ShellAnalysis): Set<SimpleCommand> {
  let set = PIPED_ON.get(analysis);
  if (!set) {
    set = new Set(analysis.commands.flatMap((c) => c.pipedFrom));
    PIPED_ON.set(analysis, set);
  }
  return set;
}

const CLOUD_METADATA: CommandRule = {
  key: 'cloud-metadata',
  description: "reach a cloud metadata endpoint (the machine's cloud credentials)",
  match(cmd, ctx) {
    // text printed for a person (`echo … >> notes.md`) reaches nothing; printed into a pipe it may
    if (/^(?:echo|printf)$/.test(programName(cmd)) && !pipedOn(ctx.analysis).has(cmd)) return null;
    const hosts = new Set<string>();
    for (const t of texts(cmd)) {
      const h = metadataHost(t);
      if (h) hosts.add(h);
    }
    // a host kept in a variable first (`H=169.254.169.254; curl http://$H/`)
    if (cmd.argv.some((w) => !w.literal)) {
      for (const a of ctx.analysis.assignments ?? []) {
        const h = metadataHost(a.value.value);
        if (h && cmd.argv.some((w) => w.value.includes(`$${a.name}`) || w.value.includes(`\${${a.name}`)))
          hosts.add(h);
      }
    }
    return hosts.size > 0 ? [...hosts] : null;
  },
};

/** The network rules. */
export const NET_RULES: readonly CommandRule[] = [CLOUD_METADATA];
