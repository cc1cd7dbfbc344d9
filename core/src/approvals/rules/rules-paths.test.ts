/**
 * Rules that judge a command by the paths and folders it reaches rather than its words: Hermes's
 * home and the user's credential files from any working folder (the old context table's
 * commands), and the repository a git command acts on after the `cd`s before it.
 */
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectCommand } from '../detect.js';
import { keysOf, makeFixture, type Fixture } from './testing.js';

let fx: Fixture;
beforeAll(() => {
  fx = makeFixture();
});
afterAll(() => fx.remove());

/**
 * The old table's commands about Hermes's own home and the user's actual folders: the self rules
 * judge them by path now (the root as `~/.hermes`, `$HERMES_HOME`, or relative to a working folder
 * inside it), the file rules the home's credential files by absolute path.
 */
describe('the old context table', () => {
  const hermes: [string, 'root' | 'proj'][] = [
    ['echo "approvals: {mode: off}" > ~/.hermes/config.yaml', 'proj'],
    ['cat $HERMES_HOME/.env', 'proj'],
    ['echo approvals: off >> config.yaml', 'root'],
    ['sed -i s/manual/off/ config.yaml', 'root'],
    ['grep KEY ~/.hermes/.env', 'proj'],
    ['cd ~/.hermes && cat .env', 'proj'],
  ];
  it.each(hermes)("flags %j (in the %s folder) as touching Hermes's home", async (line, where) => {
    const k = await keysOf(line, fx.at(where === 'root' ? fx.root : fx.proj));
    expect(k.hits.length).toBeGreaterThan(0);
  });

  it('flags credential files of the actual home by absolute path, not look-alikes', async () => {
    const at = fx.at();
    expect((await keysOf(`echo ssh-rsa A >> ${fx.home}/.ssh/known`, at)).hits).toContain('credential-files');
    expect((await keysOf(`echo x >> ${fx.home}/.bashrc`, at)).hits).toContain('credential-files');
    expect((await keysOf(`cd ${fx.home}/.ssh && cat k >> config`, at)).hits).toContain('credential-files');
    expect(await keysOf(`cat ${fx.home}/notes.txt`, at)).toEqual({ floor: [], hits: [] });
    expect(await keysOf(`echo x >> ${fx.proj}/.bashrc.example`, at)).toEqual({ floor: [], hits: [] });
  });
});

describe('the repository of a git command', () => {
  it('is the folder it runs in after the cds before it, so an entry of one repository does not cover another', async () => {
    const other = `${fx.base}/other-repo`;
    mkdirSync(`${other}/.git`, { recursive: true });
    const repoOf = async (line: string) =>
      (await detectCommand(line, fx.at())).hits.find((h) => h.key === 'git-force-push')?.targets;
    expect(await repoOf('git push --force origin main')).toContain(fx.proj);
    const moved = await repoOf('cd ../other-repo && git push --force origin main');
    expect(moved).toContain(other);
    expect(moved).not.toContain(fx.proj);
    expect(await repoOf('cd src && cd .. && git push --force origin main')).toContain(fx.proj);
    const unknown = await repoOf('cd "$(mktemp -d)" && git push --force origin main');
    expect(unknown).not.toContain(fx.proj);
  });
});
