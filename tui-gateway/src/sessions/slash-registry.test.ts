/**
 * The daemon's session layer answers exactly the commands the one slash-command table marks
 * `daemon.runner: 'session'`; every other name is tried as a saved skill (and, with none of that
 * name, answered "Unknown command" with `handled: false`).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HermesHome } from '@hermes/core/home';
import { commandsFor, SLASH_COMMANDS } from '@hermes/core/constants';
import type { Connection } from '../rpc/types.js';
import type { SessionRegistry } from './session-registry.js';
import { runSlashCommand } from './slash-commands.js';

const conn = { id: 'c-1', profile: 'default', clientName: 'test' } as Connection;

/** A registry with one stored session `s1` and nothing live; unknown members are absent. */
function registry(): SessionRegistry {
  const home = new HermesHome(mkdtempSync(join(tmpdir(), 'slash-registry-'))).ensure();
  const db = {
    getSession: (id: string) =>
      id === 's1' ? { id, title: 't', prompt_tokens: 1, completion_tokens: 2, message_count: 3 } : undefined,
  };
  return {
    profile: () => ({ db, home }),
    currentId: (_profile: string, id: string) => id,
    peek: () => undefined,
  } as unknown as SessionRegistry;
}

/** The answer of `line`, or the error it threw (a handler reaching parts the stand-in lacks). */
async function answer(line: string): Promise<{ output: string; handled: boolean } | Error> {
  try {
    return await runSlashCommand(registry(), conn, 's1', line);
  } catch (err) {
    return err as Error;
  }
}

const sessionCommands = commandsFor('daemon').filter((c) => c.daemon!.runner === 'session');

describe('daemon commands come from the slash-command table', () => {
  it.each(sessionCommands.map((c) => c.name))('/%s is answered by the session layer', async (name) => {
    const r = await answer(`/${name}`);
    if (!(r instanceof Error)) expect(r.output).not.toMatch(/^Unknown command/);
  });

  it('no other name of the table is answered by the session layer', async () => {
    const others = SLASH_COMMANDS.filter(
      (c) => !('daemon' in c && c.daemon.runner === 'session') && c.name !== 'SKILL-NAME',
    ).flatMap((c) => [c.name, ...('aliases' in c ? c.aliases : [])]);
    expect(others).toEqual(expect.arrayContaining(['clear', 'whoami', 'cron', 'exit']));
    for (const name of others) {
      expect(await answer(`/${name}`), `/${name}`).toEqual({
        output: `Unknown command /${name}. Try /help.`,
        handled: false,
      });
    }
  });

  it("answers /help with the table's daemon lines", async () => {
    const r = await answer('/HELP');
    expect(r).toMatchObject({ handled: true });
    for (const c of sessionCommands) expect((r as { output: string }).output).toContain(`/${c.name}`);
  });
});
