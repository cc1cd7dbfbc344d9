/**
 * Which config changes loosen what guards the agent's commands, and the stricter of two sets of
 * approval settings. The rule the daemon applies with them (tui-gateway/src/sessions/):
 *
 * - A **loosening** is: `approvals.mode` manual → smart / off or smart → off; a longer
 *   `approvals.timeout`; `approvals.cron_mode` deny → allow; another `approvals.smart_model` while
 *   the mode is smart (another model decides what runs unasked); entries added to
 *   `command_allowlist` or to `terminal.env_passthrough`; a lane's sandbox made looser
 *   (`terminal.sandbox`: strict → workspace → off, as resolved per lane), `terminal.network`
 *   off → on (for a sandboxed lane), `terminal.sandbox_fallback` refuse → ask.
 * - A loosening never reaches a turn that is already running: it keeps the settings it started
 *   with, and the change applies from the next turn. Every loosening the user did not ask for in
 *   an attached client is announced to the clients (`config.changed` `loosened`).
 * - A tightening of the guard's own settings (mode, timeout, allowlist, cron_mode) applies at once,
 *   also to a running turn (`stricterApprovals`); the other settings change at the next turn.
 */
import { resolveSandboxPolicy, SANDBOX_LANES, type SandboxMode } from '../tools/sandbox/policy.js';
import type { HermesConfig } from './schema.js';

/** One loosened setting: its dotted key, the value before and after. */
export interface ApprovalLoosening {
  key: string;
  from: unknown;
  to: unknown;
}

/** How much each approval mode lets run unasked: a higher rank asks less. */
const MODE_RANK: Record<HermesConfig['approvals']['mode'], number> = { manual: 0, smart: 1, off: 2 };

/** True when approval mode `next` lets more run unasked than `current` (`manual` < `smart` < `off`). */
export function modeAsksLess(
  next: HermesConfig['approvals']['mode'],
  current: HermesConfig['approvals']['mode'],
): boolean {
  return MODE_RANK[next] > MODE_RANK[current];
}

const added = (before: readonly string[], after: readonly string[]): string[] =>
  after.filter((e) => !before.includes(e));

/**
 * The settings that are looser in `after` than in `before` (see the file comment), in a fixed
 * order: mode, timeout, cron_mode, smart_model, command_allowlist, terminal.env_passthrough.
 * Lists are reported whole (`from`/`to`); what was added is `to` minus `from`.
 */
export function approvalLoosenings(before: HermesConfig, after: HermesConfig): ApprovalLoosening[] {
  const out: ApprovalLoosening[] = [];
  const a = before.approvals;
  const b = after.approvals;
  if (MODE_RANK[b.mode] > MODE_RANK[a.mode]) out.push({ key: 'approvals.mode', from: a.mode, to: b.mode });
  if (b.timeout > a.timeout) out.push({ key: 'approvals.timeout', from: a.timeout, to: b.timeout });
  if (a.cron_mode === 'deny' && b.cron_mode === 'allow') {
    out.push({ key: 'approvals.cron_mode', from: a.cron_mode, to: b.cron_mode });
  }
  if (a.edits === 'ask' && b.edits === 'off') out.push({ key: 'approvals.edits', from: 'ask', to: 'off' });
  if (b.mode === 'smart' && a.mode === 'smart' && b.smart_model !== a.smart_model) {
    out.push({ key: 'approvals.smart_model', from: a.smart_model ?? null, to: b.smart_model ?? null });
  }
  if (added(before.command_allowlist, after.command_allowlist).length > 0) {
    out.push({ key: 'command_allowlist', from: before.command_allowlist, to: after.command_allowlist });
  }
  const envBefore = before.terminal.env_passthrough;
  const envAfter = after.terminal.env_passthrough;
  if (added(envBefore, envAfter).length > 0) {
    out.push({ key: 'terminal.env_passthrough', from: envBefore, to: envAfter });
  }
  out.push(...sandboxLoosenings(before, after));
  return out;
}

/** How much each sandbox mode confines: a higher rank confines less. */
const SANDBOX_RANK: Record<SandboxMode, number> = { strict: 0, workspace: 1, off: 2 };

/** The sandbox settings looser in `after` (judged per lane as if the sandbox ran here). */
function sandboxLoosenings(before: HermesConfig, after: HermesConfig): ApprovalLoosening[] {
  const out: ApprovalLoosening[] = [];
  const lanes = SANDBOX_LANES.map((lane) => [
    resolveSandboxPolicy(before, lane, true),
    resolveSandboxPolicy(after, lane, true),
  ]);
  if (lanes.some(([a, b]) => SANDBOX_RANK[b!.mode] > SANDBOX_RANK[a!.mode])) {
    out.push({
      key: 'terminal.sandbox',
      from: before.terminal.sandbox ?? null,
      to: after.terminal.sandbox ?? null,
    });
  }
  if (lanes.some(([a, b]) => b!.mode !== 'off' && !a!.network && b!.network)) {
    out.push({ key: 'terminal.network', from: before.terminal.network, to: after.terminal.network });
  }
  if (lanes.some(([a, b]) => a!.fallback === 'refuse' && b!.fallback === 'ask')) {
    out.push({
      key: 'terminal.sandbox_fallback',
      from: before.terminal.sandbox_fallback ?? null,
      to: after.terminal.sandbox_fallback ?? null,
    });
  }
  return out;
}

/**
 * `current` with each approval setting of the guard replaced by the stricter of its value and
 * `next`'s: the mode that asks more, the shorter timeout, cron_mode `deny` if either says so,
 * the allowlist entries in both. `approvals.smart_model` and everything else stay `current`'s.
 * @returns `current` itself when `next` is nowhere stricter.
 */
export function stricterApprovals(current: HermesConfig, next: HermesConfig): HermesConfig {
  const a = current.approvals;
  const b = next.approvals;
  const mode = MODE_RANK[b.mode] < MODE_RANK[a.mode] ? b.mode : a.mode;
  const timeout = Math.min(a.timeout, b.timeout);
  const cron_mode = a.cron_mode === 'deny' || b.cron_mode === 'deny' ? 'deny' : 'allow';
  const edits = a.edits === 'ask' || b.edits === 'ask' ? 'ask' : 'off';
  const allowlist = current.command_allowlist.filter((e) => next.command_allowlist.includes(e));
  const same =
    mode === a.mode &&
    timeout === a.timeout &&
    cron_mode === a.cron_mode &&
    edits === a.edits &&
    allowlist.length === current.command_allowlist.length;
  if (same) return current;
  return {
    ...current,
    approvals: { ...a, mode, timeout, cron_mode, edits },
    command_allowlist: allowlist,
  };
}
