/**
 * The text of `hermes status`: one line per live session across profiles, e.g.
 * `work  20261205_063301_a1b2c3  telegram  approval 1m05s  1,234 tok  $0.0123  "Fix the build"  rm -rf dist`.
 */
import { costLabel } from '@hermes/core/constants';
import type { LiveSessionStatus } from '@hermes/core/protocol';

/** `65s` → `1m05s`; under a minute `12s`; hours `1h02m`. */
export function elapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/**
 * The COST cell, as every surface writes a cost: `local`, `$0.0123`, `$0.01 (partial)`, `unknown`;
 * blank before any model call.
 */
function costCell(r: LiveSessionStatus): string {
  if (r.cost_status) return costLabel(r.cost_usd ?? undefined, r.cost_status) ?? '';
  return r.cost_usd !== null ? `$${r.cost_usd.toFixed(4)}` : ''; // a daemon without cost_status
}

const STATE_LABEL: Record<LiveSessionStatus['state'], string> = {
  working: 'working',
  approval: 'approval?',
  clarify: 'question?',
  idle: 'idle',
  failed: 'failed',
};

/**
 * The table for these rows at time `now` (epoch ms); a header line, then one line per session,
 * sorted by profile then session id. `No live sessions.` when empty.
 */
export function statusTable(rows: readonly LiveSessionStatus[], now: number): string {
  if (rows.length === 0) return 'No live sessions.\n';
  const sorted = [...rows].sort((a, b) =>
    a.profile === b.profile ? a.session_id.localeCompare(b.session_id) : a.profile.localeCompare(b.profile),
  );
  const cells = sorted.map((r) => [
    r.profile,
    r.session_id,
    r.source,
    STATE_LABEL[r.state] + (r.escalated_to ? ` (sent to ${r.escalated_to})` : ''),
    r.turn_started_at !== null ? elapsed(now - r.turn_started_at) : '',
    `${r.tokens.toLocaleString('en-US')} tok`,
    costCell(r),
    r.title ? JSON.stringify(r.title.length > 40 ? `${r.title.slice(0, 39)}…` : r.title) : '',
    r.command ?? r.question ?? '',
  ]);
  const head = ['PROFILE', 'SESSION', 'SOURCE', 'STATE', 'TURN', 'TOKENS', 'COST', 'TITLE', 'WAITING ON'];
  const all = [head, ...cells];
  const widths = head.map((_, i) => Math.max(...all.map((c) => c[i]!.length)));
  return (
    all
      .map((c) =>
        c
          .map((v, i) => v.padEnd(widths[i]!))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}
