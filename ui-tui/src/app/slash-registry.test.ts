/**
 * The TUI runs exactly the commands the one slash-command table gives it: the ones marked
 * `runs: 'tui'` are handled in the window (never sent to the daemon), the ones marked `daemon`
 * go to `slash.exec`, and a name the table does not give the TUI goes to the daemon untouched.
 */
import { describe, expect, it } from 'vitest';
import { commandsFor, SLASH_COMMANDS } from '@hermes/core/constants';
import { COMMANDS } from '../commands/table.js';
import type { SessionController } from './controller.js';
import { runInput, type SlashUi } from './slash.js';

/** A controller whose every method records its call and answers an empty result. */
function fakeController(): { ctl: SessionController; calls: string[] } {
  const calls: string[] = [];
  const state = { sessionId: 's1', connection: 'connected', lastReply: 'hi', usage: null };
  const client = {
    call: async (method: string) => {
      calls.push(`call:${method}`);
      if (method === 'model.list') return { models: [], current: '' };
      if (method === 'profile.list') return { profiles: [], active: 'default' };
      if (method === 'slash.exec') return { handled: true, output: '' };
      return {};
    },
  };
  const ctl = new Proxy(
    {},
    {
      get: (_t, prop: string) => {
        if (prop === 'state') return state;
        if (prop === 'client') return client;
        return async (...args: unknown[]) => {
          calls.push(`${prop}:${String(args[0] ?? '')}`);
          return prop === 'listSessions' ? [] : true;
        };
      },
    },
  ) as unknown as SessionController;
  return { ctl, calls };
}

const ui: SlashUi = { exit: () => {}, writeRaw: () => {}, openPicker: () => {} };

describe('TUI commands come from the slash-command table', () => {
  it("lists the table's tui entries, in order, with their runner", () => {
    expect(COMMANDS.map((c) => c.name)).toEqual(commandsFor('tui').map((c) => c.name));
    for (const c of COMMANDS) {
      const def = SLASH_COMMANDS.find((d) => d.name === c.name)!;
      expect(c.run, `/${c.name}`).toBe('tui' in def && def.tui.runs === 'tui' ? 'local' : 'daemon');
    }
  });

  it.each(COMMANDS.map((c) => [c.name, c.run] as const))(
    '/%s runs where the table says (%s)',
    async (name, run) => {
      const { ctl, calls } = fakeController();
      await runInput(`/${name} 1`, ctl, ui);
      const sent = calls.filter((c) => c.startsWith('slashExec:')).map((c) => c.slice('slashExec:'.length));
      if (run === 'daemon') expect(sent).toEqual([`/${name} 1`]);
      else expect(sent).toEqual([]);
    },
  );

  it('sends names the table does not give the TUI to the daemon as typed', async () => {
    const others = SLASH_COMMANDS.filter((c) => !('tui' in c) && c.name !== 'SKILL-NAME');
    expect(others.length).toBeGreaterThan(0);
    for (const c of others) {
      const { ctl, calls } = fakeController();
      await runInput(`/${c.name}`, ctl, ui);
      expect(calls).toEqual([`slashExec:/${c.name}`]);
    }
  });
});
