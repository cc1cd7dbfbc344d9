/**
 * The commands a CLI message suggests can be typed as printed: without `hermes` on PATH (no
 * `npm run link`) they name this install's executable, as `Resume: … tui -s ID` does
 * (bin/src/command-form.ts). Runs the compiled `bin/hermes` (build first).
 */
import { realpathSync, rmSync } from 'node:fs';
import { delimiter, dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HERMES_BIN, makeTestHome, runHermes } from './support/hermes-cli.js';

const root = makeTestHome();
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A PATH with node and the system, and no `hermes`. */
const PATH = [dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter);
const self = realpathSync(HERMES_BIN);

describe('hints of the CLI without hermes on PATH', () => {
  it('name the executable of this install', async () => {
    const run = (...args: string[]) => runHermes(root, args, { env: { PATH } });
    const key = await run('config', 'get', 'nope');
    expect(key.code).toBe(1);
    expect(key.stderr).toContain(`(${self} config show lists them all)`);
    const cron = await run('cron', 'list');
    expect(cron.stdout).toContain(`Add one with: ${self} cron add`);
    const status = await run('status');
    expect(status.code).toBe(3);
    expect(status.stderr).toContain(`no daemon is running (${self} gateway start starts it)`);
    const model = await run('model');
    expect(model.stdout).toContain(`Switch: ${self} model set PROVIDER/MODEL`);
    // messages made in core name plain `hermes`; the CLI prints this install's form
    const chat = await run('chat', '-q', 'hi');
    expect(chat.code).toBe(1);
    expect(chat.stderr).toContain(`(or export it; \`${self} auth add openrouter\` does it)`);
    const job = await run('cron', 'pause', 'nope');
    expect(job.stderr).toContain(`no cron job "nope" (see ${self} cron list)`);
  });
});

describe('a command group without its sub-command', () => {
  it('names the sub-commands, not yargs internals', async () => {
    for (const [group, subs] of [
      ['gateway', 'run, start, stop, restart, status, install, uninstall'],
      ['pairing', 'list, approve, revoke'],
    ] as const) {
      const r = await runHermes(root, [group]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`Give a ${group} sub-command: ${subs}`);
      expect(r.stderr).not.toContain('non-option arguments');
    }
  });
});
