import { homedir } from 'node:os';
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { renderInk } from '../testing/ink.js';
import { StatusBar, type StatusBarProps } from './StatusBar.js';

afterEach(() => cleanup());

const props = (over: Partial<StatusBarProps> = {}): StatusBarProps => ({
  profile: 'work',
  model: 'm1',
  contextTokens: 12_345,
  contextWindow: 128_000,
  cwd: `${homedir()}/app`,
  title: 'Fix it',
  connection: 'connected',
  clients: 2,
  busy: true,
  activity: 'tools',
  turnStartedAt: 10_000,
  now: 75_000,
  width: 100,
  ...over,
});

describe('StatusBar', () => {
  it('shows the turn and session cost the daemon priced; local and unknown say so', async () => {
    const base = { busy: false, clients: 1, width: 100, turnCost: '$0.0225', sessionCost: '$1.23' };
    const r = await renderInk(<StatusBar {...props(base)} />);
    // the cwd goes first when the line is too narrow; the cost stays
    expect(r.text()).toBe(
      'work · m1 · ctx 12k/128k (10%) · $0.0225 turn · $1.23 session · “Fix it” · ● connected · ◇ idle',
    );
    r.rerender(<StatusBar {...props({ ...base, turnCost: 'local', sessionCost: 'local' })} />);
    await r.waitFor('local (no cost)');
    r.rerender(<StatusBar {...props({ ...base, turnCost: 'unknown', sessionCost: '$0.50 (partial)' })} />);
    await r.waitFor('unknown turn · $0.50 (partial) session');
    // nothing priced yet: no cost part at all
    r.rerender(<StatusBar {...props({ busy: false, clients: 1, width: 100 })} />);
    await r.waitFor('idle');
    expect(r.text()).not.toContain('turn');
  });

  it('counts running background processes (hidden at 0)', async () => {
    const r = await renderInk(
      <StatusBar {...props({ background: 2, busy: false, clients: 1, width: 120 })} />,
    );
    expect(r.text()).toBe(
      'work · m1 · ctx 12k/128k (10%) · ~/app · “Fix it” · ● connected · ⚙ 2 bg · ◇ idle',
    );
    r.rerender(<StatusBar {...props({ background: 0, busy: false, clients: 1, width: 120 })} />);
    await r.waitFor('idle');
    expect(r.text()).not.toContain('bg');
  });

  it('shows profile, model, context, cwd, title, connection, clients and busy time', async () => {
    const r = await renderInk(<StatusBar {...props()} />);
    expect(r.text()).toBe(
      'work · m1 · ctx 12k/128k (10%) · ~/app · “Fix it” · ● connected · 2 clients · ◆ running tools 1m05s',
    );
  });

  it('says responding while the reply streams, and waiting for approval', async () => {
    const r = await renderInk(<StatusBar {...props({ activity: 'responding', width: 40, clients: 1 })} />);
    expect(r.text()).toBe('work · ● connected · ◆ responding 1m05s');
    r.rerender(<StatusBar {...props({ activity: 'waiting_approval', width: 50, clients: 1 })} />);
    await r.waitFor('approval');
    expect(r.text()).toBe('work · ● connected · ◆ waiting for approval 1m05s');
  });

  it('shows idle and the connection state', async () => {
    const r = await renderInk(
      <StatusBar {...props({ busy: false, connection: 'reconnecting', clients: 1 })} />,
    );
    expect(r.text()).toBe('work · m1 · ctx 12k/128k (10%) · ~/app · “Fix it” · ◌ reconnecting · ◇ idle');
  });

  it('drops the cwd, then the title, then the context, then the model when narrow; state stays', async () => {
    const r = await renderInk(<StatusBar {...props({ width: 78 })} />);
    expect(r.text()).toBe('work · m1 · ● connected · 2 clients · ◆ running tools 1m05s');
    // 60 columns, idle, one client: the model stays, the context counter goes first
    r.rerender(<StatusBar {...props({ width: 60, model: 'fake-model', busy: false, clients: 1 })} />);
    await r.waitFor('idle');
    expect(r.text()).toBe('work · fake-model · ● connected · ◇ idle');
  });
});
