/**
 * An `always` answer that cannot be written to `config.yaml` is not silent: the command runs this
 * once, the approval holds for the session, and the user is told it was not saved.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alwaysNotSavedText } from './guard-check.js';
import { useTestAgents } from './testing.js';

const agents = useTestAgents();

describe('an "always" answer config.yaml cannot take', () => {
  it('runs the command, keeps it for the session, and says it was not saved', async () => {
    const t = agents.create({
      prefix: 'agent-always-',
      agent: { onApproval: () => Promise.resolve('always' as const) },
    });
    // a config.yaml that does not parse: the allowlist cannot be written into it
    writeFileSync(t.home.configFile, 'model: [unclosed\n');
    const victim = join(t.root, 'victim');
    mkdirSync(victim);
    agents.model.push({ toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${victim}` } }] });
    agents.model.push({ text: 'done' });
    const r = await t.agent.runTurn('clean up', new AbortController().signal);
    expect(r.status).toBe('complete');
    expect(existsSync(victim)).toBe(false);
    const notices = t.events.filter((e) => e.type === 'error' && e.payload.kind === 'notice');
    expect(notices.map((e) => (e.type === 'error' ? e.payload.message : ''))).toEqual([
      expect.stringMatching(
        /^The approval was not saved to config\.yaml \(.+\): it applies to this session only\./,
      ),
    ]);
    expect(alwaysNotSavedText(new Error('EACCES'))).toContain('(EACCES)');
  });
});
