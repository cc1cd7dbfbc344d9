/** Which config changes loosen the approval settings, and the stricter of two settings. */
import { describe, expect, it } from 'vitest';
import { approvalLoosenings, stricterApprovals } from './approval-changes.js';
import { ConfigSchema, type HermesConfig } from './schema.js';

const cfg = (extra: Record<string, unknown> = {}): HermesConfig => ConfigSchema.parse(extra);

describe('approvalLoosenings', () => {
  it('names each loosened setting with its old and new value', () => {
    const before = cfg({ command_allowlist: ['recursive-delete'], terminal: { env_passthrough: ['A'] } });
    const after = cfg({
      approvals: { mode: 'off', timeout: 900, cron_mode: 'allow' },
      command_allowlist: ['recursive-delete', 'execute-code'],
      terminal: { env_passthrough: ['A', 'GITHUB_TOKEN'] },
    });
    expect(approvalLoosenings(before, after)).toEqual([
      { key: 'approvals.mode', from: 'manual', to: 'off' },
      { key: 'approvals.timeout', from: 300, to: 900 },
      { key: 'approvals.cron_mode', from: 'deny', to: 'allow' },
      { key: 'command_allowlist', from: ['recursive-delete'], to: ['recursive-delete', 'execute-code'] },
      { key: 'terminal.env_passthrough', from: ['A'], to: ['A', 'GITHUB_TOKEN'] },
    ]);
  });

  it('the sandbox: a lane made looser, the network on for a sandboxed lane, fallback refuse → ask', () => {
    const before = cfg({ terminal: { sandbox: { tui: 'workspace' }, network: 'off' } });
    expect(approvalLoosenings(before, cfg({ terminal: { sandbox: 'off', network: 'off' } }))).toEqual([
      { key: 'terminal.sandbox', from: { tui: 'workspace' }, to: 'off' },
    ]);
    expect(
      approvalLoosenings(before, cfg({ terminal: { sandbox: { tui: 'workspace' }, network: 'on' } })),
    ).toEqual([{ key: 'terminal.network', from: 'off', to: 'on' }]);
    expect(approvalLoosenings(cfg(), cfg({ terminal: { sandbox_fallback: 'ask' } }))).toEqual([
      { key: 'terminal.sandbox_fallback', from: null, to: 'ask' },
    ]);
    // stricter: nothing loosened
    expect(
      approvalLoosenings(cfg(), cfg({ terminal: { sandbox: 'strict', sandbox_fallback: 'refuse' } })),
    ).toEqual([]);
  });

  it('mode: manual → smart and smart → off loosen; the way back does not', () => {
    const m = (mode: string) => cfg({ approvals: { mode } });
    expect(approvalLoosenings(m('manual'), m('smart'))).toEqual([
      { key: 'approvals.mode', from: 'manual', to: 'smart' },
    ]);
    expect(approvalLoosenings(m('smart'), m('off'))).toHaveLength(1);
    expect(approvalLoosenings(m('off'), m('manual'))).toEqual([]);
    expect(approvalLoosenings(m('smart'), m('manual'))).toEqual([]);
  });

  it('another reviewer model in smart mode loosens; tightenings, removals and equal lists do not', () => {
    const smart = (smart_model?: string) => cfg({ approvals: { mode: 'smart', smart_model } });
    expect(approvalLoosenings(smart('big'), smart('tiny'))).toEqual([
      { key: 'approvals.smart_model', from: 'big', to: 'tiny' },
    ]);
    const wide = cfg({ command_allowlist: ['a', 'b'], approvals: { timeout: 600 } });
    const narrow = cfg({ command_allowlist: ['b'], approvals: { timeout: 60 } });
    expect(approvalLoosenings(wide, narrow)).toEqual([]);
    expect(
      approvalLoosenings(wide, cfg({ command_allowlist: ['b', 'a'], approvals: { timeout: 600 } })),
    ).toEqual([]);
  });
});

describe('stricterApprovals', () => {
  it('takes the stricter value of each guard setting and keeps the rest of the current config', () => {
    const current = cfg({
      approvals: { mode: 'off', timeout: 600, cron_mode: 'allow', smart_model: 'judge' },
      command_allowlist: ['a', 'b', 'c'],
      model: { default: 'kept' },
    });
    const next = cfg({
      approvals: { mode: 'smart', timeout: 900, cron_mode: 'deny' },
      command_allowlist: ['c', 'a', 'new'],
      model: { default: 'other' },
    });
    const merged = stricterApprovals(current, next);
    expect(merged.approvals).toMatchObject({
      mode: 'smart',
      timeout: 600,
      cron_mode: 'deny',
      smart_model: 'judge',
    });
    expect(merged.command_allowlist).toEqual(['a', 'c']);
    expect(merged.model.default).toBe('kept');
  });

  it('returns the current config itself when the next one is nowhere stricter (a pure loosening)', () => {
    const current = cfg({ command_allowlist: ['a'] });
    const looser = cfg({ approvals: { mode: 'off', timeout: 999 }, command_allowlist: ['a', 'b'] });
    expect(stricterApprovals(current, looser)).toBe(current);
  });
});

describe('approvals.edits', () => {
  it('ask → off is a loosening; a running turn keeps asking, off → ask applies at once', () => {
    const ask = cfg({ approvals: { edits: 'ask' } });
    const off = cfg({ approvals: { edits: 'off' } });
    expect(approvalLoosenings(ask, off)).toEqual([{ key: 'approvals.edits', from: 'ask', to: 'off' }]);
    expect(approvalLoosenings(off, ask)).toEqual([]);
    expect(stricterApprovals(ask, off).approvals.edits).toBe('ask');
    expect(stricterApprovals(off, ask).approvals.edits).toBe('ask');
    expect(stricterApprovals(ask, ask)).toBe(ask);
  });

  it('refuses a bad value, naming the key', () => {
    const r = ConfigSchema.safeParse({ approvals: { edits: 'sometimes' } });
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues[0]?.path)).toContain('edits');
  });
});
