import { describe, expect, it } from 'vitest';
import type { LiveSessionStatus } from '@hermes/core/protocol';
import { elapsed, statusTable } from './status-table.js';
import { statusLine } from '@hermes/core/constants';
import { rootOf } from './tmux-line.js';

const row = (o: Partial<LiveSessionStatus>): LiveSessionStatus => ({
  profile: 'default',
  session_id: 's1',
  title: null,
  source: 'tui',
  origin: 'tui',
  state: 'idle',
  turn_started_at: null,
  tokens: 0,
  cost_usd: null,
  clients: 1,
  updated_at: 0,
  ...o,
});

describe('hermes status text', () => {
  it('formats turn times', () => {
    expect([elapsed(12_400), elapsed(65_000), elapsed(3_720_000)]).toEqual(['12s', '1m05s', '1h02m']);
  });

  it('lists every session with its state, turn time, tokens, cost and what it waits on', () => {
    const text = statusTable(
      [
        row({
          profile: 'work',
          session_id: 'b',
          source: 'telegram',
          state: 'approval',
          command: 'rm -rf dist',
          escalated_to: 'telegram',
          turn_started_at: 0,
          tokens: 1234,
          cost_usd: 0.5,
        }),
        row({ session_id: 'a', title: 'Fix the build', state: 'working', turn_started_at: 5_000 }),
      ],
      70_000,
    );
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^PROFILE\s+SESSION\s+SOURCE\s+STATE/);
    expect(lines[1]).toMatch(/^default\s+a\s+tui\s+working\s+1m05s\s+0 tok\s+"Fix the build"$/);
    expect(lines[2]).toMatch(
      /^work\s+b\s+telegram\s+approval\? \(sent to telegram\)\s+1m10s\s+1,234 tok\s+\$0\.5000\s+rm -rf dist$/,
    );
    expect(statusTable([], 0)).toBe('No live sessions.\n');
  });

  it('writes the cost as every surface does when the daemon says how it is known', () => {
    const text = statusTable(
      [
        row({ session_id: 'a', cost_usd: 0, cost_status: 'local' }),
        row({ session_id: 'b', cost_usd: 0.0123, cost_status: 'priced' }),
        row({ session_id: 'c', cost_usd: null, cost_status: 'unknown' }),
        row({ session_id: 'd', cost_usd: 0.5, cost_status: 'partial' }),
      ],
      0,
    );
    const cost = text
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((l) => l.split(/\s{2,}/)[5]);
    expect(cost).toEqual(['local', '$0.0123', 'unknown', '$0.50 (partial)']);
  });

  it('the tmux line counts working, waiting and failed sessions; empty when nothing goes on', () => {
    expect(
      statusLine([row({ state: 'working' }), row({ state: 'working' }), row({ state: 'approval' })]),
    ).toBe('⚙2 ⚠1');
    expect(statusLine([row({ state: 'clarify' }), row({ state: 'failed' })])).toBe('⚠1 ✗1');
    expect(statusLine([row({ state: 'idle' })])).toBe('');
  });

  it('finds the root as core does', () => {
    expect(rootOf({ HERMES_HOME: '/x/h' })).toBe('/x/h');
    expect(rootOf({ HERMES_HOME: '/x/h/profiles/work' })).toBe('/x/h');
    expect(rootOf({ HOME: '/home/u' })).toBe('/home/u/.hermes');
  });
});
