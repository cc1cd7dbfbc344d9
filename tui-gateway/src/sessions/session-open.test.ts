import { describe, expect, it } from 'vitest';
import type { AgentHooks } from './live-session-types.js';
import { forwardingHooks } from './session-open.js';

describe('forwardingHooks', () => {
  it('denies and fails before the live session connects, then forwards to its hooks', async () => {
    const { hooks, connect } = forwardingHooks();
    const signal = new AbortController().signal;
    const ask = { command: 'rm -rf x', description: 'deletes', choices: [] } as unknown as Parameters<
      AgentHooks['onApproval']
    >[0];
    expect(await hooks.onApproval(ask, signal)).toBe('deny');
    await expect(hooks.onClarify({ question: 'q' } as never, signal)).rejects.toThrow('no session');
    expect(await hooks.editorFiles.read('/x')).toBeUndefined();
    expect(await hooks.editorFiles.write('/x', 'y')).toBe(false);

    const events: unknown[] = [];
    connect({
      onEvent: (e) => events.push(e),
      onApproval: () => Promise.resolve('once'),
      onClarify: () => Promise.resolve('answer'),
      editorFiles: { read: () => Promise.resolve('text'), write: () => Promise.resolve(true) },
    });
    hooks.onEvent({ type: 'status.update', payload: { state: 'idle' } });
    expect(events).toHaveLength(1);
    expect(await hooks.onApproval(ask, signal)).toBe('once');
    expect(await hooks.onClarify({ question: 'q' } as never, signal)).toBe('answer');
    expect(await hooks.editorFiles.read('/x')).toBe('text');
  });
});
