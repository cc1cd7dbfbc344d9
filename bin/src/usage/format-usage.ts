/**
 * The text and JSON forms of a `hermes usage` report. Token columns: `input` is every prompt
 * token (cached ones included), `cached` the part read from the provider's cache, `output` every
 * completion token (reasoning included).
 */
import { costLabel } from '@hermes/core/constants';
import type { UsageReportRow } from '@hermes/core/state';

/** One row as `--json` prints it (USD with micro-dollar precision). */
export interface UsageJsonRow {
  key: string;
  calls: number;
  input_tokens: number;
  cached_tokens: number;
  cache_write_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
  /** USD of the priced calls; absent when nothing had a price. */
  cost_usd?: number;
  /** `priced`, `local`, `partial` (some usage without a price) or `unknown`. */
  cost_status: UsageReportRow['cost_status'];
  /** Tokens of calls whose model had no known price. */
  unpriced_tokens: number;
  /** Tokens sessions counted before costs were stored (their cost unknown). */
  untracked_tokens: number;
}

/** A report row in its `--json` form. */
export function usageJsonRow(r: UsageReportRow): UsageJsonRow {
  return {
    key: r.key,
    calls: r.calls,
    input_tokens: r.prompt_tokens,
    cached_tokens: r.cached_tokens,
    cache_write_tokens: r.cache_write_tokens,
    output_tokens: r.completion_tokens,
    reasoning_tokens: r.reasoning_tokens,
    ...(r.cost_status !== 'unknown' ? { cost_usd: r.cost_micros / 1_000_000 } : {}),
    cost_status: r.cost_status,
    unpriced_tokens: r.unknown_tokens,
    untracked_tokens: r.untracked_tokens,
  };
}

const num = (n: number): string => n.toLocaleString('en-US');

/** The report as an aligned table with a totals line and what was left unpriced. */
export function formatUsageTable(
  rows: readonly UsageReportRow[],
  total: UsageReportRow,
  opts: { by: 'model' | 'day' | 'profile'; profiles: readonly string[]; since?: number | undefined },
): string {
  const scope = opts.by === 'profile' ? `${opts.profiles.length} profiles` : `profile ${opts.profiles[0]}`;
  const when =
    opts.since !== undefined
      ? ` since ${new Date(opts.since).toISOString().slice(0, 16).replace('T', ' ')} UTC`
      : '';
  const head = `Usage of ${scope}${when}, by ${opts.by}`;
  if (rows.length === 0) return `${head}: nothing used.\n`;
  const cells = (r: UsageReportRow): string[] => [
    r.key,
    num(r.calls),
    num(r.prompt_tokens),
    num(r.cached_tokens),
    num(r.completion_tokens),
    costLabel(r.cost_micros / 1_000_000, r.cost_status) ?? 'unknown',
  ];
  const table = [[opts.by, 'calls', 'input', 'cached', 'output', 'cost'], ...rows.map(cells), cells(total)];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  const out = [head, line(table[0]!), ...table.slice(1, -1).map(line), line(table.at(-1)!)];
  const notes: string[] = [];
  if (total.unknown_tokens > 0)
    notes.push(
      `${num(total.unknown_tokens)} tokens of models without a known price (cost unknown; see model.pricing)`,
    );
  if (total.untracked_tokens > 0)
    notes.push(`${num(total.untracked_tokens)} tokens counted before costs were stored (cost unknown)`);
  if (notes.length) out.push(`Unpriced: ${notes.join('; ')}.`);
  return `${out.join('\n')}\n`;
}
