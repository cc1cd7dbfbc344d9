/**
 * How a cost reads on every surface (status bar, `sessions show`, `hermes usage`): zod-free, so
 * the TUI may import it.
 */

/** USD as text: `$0.00` for nothing, four decimals under a cent (`$0.0042`), else two (`$1.23`). */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0.00';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

/**
 * The text of a cost and its status (`Usage.cost_status`): `$0.0123`; `local` (a local server:
 * free); `unknown` (no price known for the model); `$0.0123 (partial)` (some calls without a
 * price). Undefined when nothing was priced (no status).
 */
export function costLabel(usd: number | undefined, status: string | undefined): string | undefined {
  switch (status) {
    case 'local':
      return 'local';
    case 'unknown':
      return 'unknown';
    case 'partial':
      return `${formatUsd(usd ?? 0)} (partial)`;
    case 'priced':
      return formatUsd(usd ?? 0);
    default:
      return undefined;
  }
}
