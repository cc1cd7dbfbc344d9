/** Notices of commands a dead daemon left behind: per session and profile, stopped or ended. */
import { describe, expect, it } from 'vitest';
import type { ToolProcessEntry } from '@hermes/core/tools';
import { ToolReapNotices } from './tool-reap-notices.js';

const entry = (pid: number, session: string, profile = 'default', command = 'make'): ToolProcessEntry => ({
  pid,
  start: '1',
  session,
  profile,
  command,
  owner: 2,
  owner_start: '3',
});

describe('ToolReapNotices', () => {
  it('keeps one notice per command, per profile and session', () => {
    const n = new ToolReapNotices();
    n.add({
      stopped: [entry(10, 's1')],
      ended: [entry(11, 's1', 'default', 'x'.repeat(300)), entry(12, 's1', 'work')],
    });
    const s1 = n.of('default', 's1');
    expect(s1).toHaveLength(2);
    expect(s1[0]).toBe(
      "The daemon stopped unexpectedly while this session's command was running: `make` (pid 10). It was still running and has been stopped.",
    );
    expect(s1[1]).toContain(`\`${'x'.repeat(199)}…\` (pid 11). It was stopped with the daemon.`);
    expect(n.of('work', 's1')).toHaveLength(1);
    expect(n.of('default', 's2')).toEqual([]);
  });
});
