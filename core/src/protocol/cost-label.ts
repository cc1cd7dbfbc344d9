/**
 * How a cost reads on every surface (status bar, `sessions show`, `hermes usage`): zod-free, so
 * the TUI may import it.
 */

/**
 * USD as text: two decimals from a dollar up (`$12.35`); below, up to four (`$0.0225`, `$0.0042`),
 * trailing zeros dropped down to two (`$0.50`, `$0.00`).
 */
export function formatUsd(usd: number): string {
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  return `$${usd.toFixed(4).replace(/(\.\d\d\d*?)0+$/, '$1')}`;
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
