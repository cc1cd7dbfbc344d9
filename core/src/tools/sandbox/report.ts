/**
 * What `hermes sandbox check` prints: whether the sandbox works here (bwrap path and version,
 * user namespaces, the reason when not) and the policy of each lane under the profile's config.
 */
import type { HermesConfig } from '../../config/schema.js';
import type { SandboxSupport } from './detect.js';
import { resolveSandboxPolicy, SANDBOX_LANES, type SandboxPolicy } from './policy.js';

/** The report as data (`--json`). */
export interface SandboxReport {
  support: SandboxSupport;
  lanes: SandboxPolicy[];
}

/** The report of `support` and each lane's policy under `config`. */
export function sandboxReport(support: SandboxSupport, config: HermesConfig): SandboxReport {
  return {
    support,
    lanes: SANDBOX_LANES.map((lane) => resolveSandboxPolicy(config, lane, support.available)),
  };
}

/** The report as lines of text (no trailing newline). */
export function formatSandboxReport(r: SandboxReport): string {
  const s = r.support;
  const lines = [
    s.available ? 'sandbox: works here (bubblewrap)' : 'sandbox: does NOT work here',
    `  bwrap: ${s.path ?? 'not found on PATH'}${s.version ? ` (${s.version})` : ''}`,
    `  user namespaces: ${s.userNamespaces}`,
  ];
  if (s.reason) lines.push(`  why: ${s.reason}`);
  lines.push('lanes (terminal.sandbox, terminal.network, terminal.sandbox_fallback):');
  for (const p of r.lanes) {
    const src = p.explicit ? 'configured' : 'default';
    const net = p.mode === 'off' ? '' : `, network ${p.network ? 'on' : 'off'}`;
    const unavailable =
      p.mode !== 'off' && !s.available
        ? ` — cannot run here: ${p.fallback === 'ask' ? 'asks once per session' : 'commands are refused'}`
        : '';
    lines.push(`  ${p.lane.padEnd(9)} ${p.mode} (${src}${net})${unavailable}`);
  }
  return lines.join('\n');
}
