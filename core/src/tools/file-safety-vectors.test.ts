/**
 * The original project's file-safety vectors (NousResearch/hermes-agent:
 * tests/tools/test_write_deny.py for writes, tests/agent/test_file_safety.py for reads) against
 * `sensitiveWriteReason`, `protectedWriteReason` and `protectedReadReason`. The user's home is a
 * temporary folder here, so a broken guard never reaches the real ~/.ssh. Deliberate differences
 * are marked and explained.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protectedReadReason, protectedWriteReason } from './paths.js';
import { isSecretEnvName, sensitiveWriteReason } from './sensitive-paths.js';
import { makeToolContext } from './testing.js';

const realHome = process.env.HOME;
let fakeHome: string;
let scratch: string;
beforeAll(() => {
  fakeHome = mkdtempSync(join(tmpdir(), 'hermes-vectors-home-'));
  process.env.HOME = fakeHome;
  scratch = mkdtempSync(join(tmpdir(), 'hermes-vectors-'));
});
afterAll(() => {
  process.env.HOME = realHome;
  rmSync(fakeHome, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});
/** A tool context with its own Hermes home, inside this file's scratch folder. */
const freshCtx = () => makeToolContext(mkdtempSync(join(scratch, 'ctx-')));
const inHome = (...parts: string[]): string => join(homedir(), ...parts);

describe('write deny-list (original test_write_deny.py)', () => {
  const denied: Array<[string, () => string]> = [
    ['/etc/shadow', () => '/etc/shadow'],
    ['/etc/passwd', () => '/etc/passwd'],
    ['/etc/sudoers', () => '/etc/sudoers'],
    ['/etc/sudoers.d/custom', () => '/etc/sudoers.d/custom'],
    ['/etc/systemd/system/evil.service', () => '/etc/systemd/system/evil.service'],
    ['~/.ssh/authorized_keys', () => inHome('.ssh', 'authorized_keys')],
    ['~/.ssh/id_rsa', () => inHome('.ssh', 'id_rsa')],
    ['~/.ssh/id_ed25519', () => inHome('.ssh', 'id_ed25519')],
    ['~/.ssh/some_key', () => inHome('.ssh', 'some_key')],
    ['~/.aws/credentials', () => inHome('.aws', 'credentials')],
    ['~/.gnupg/secring.gpg', () => inHome('.gnupg', 'secring.gpg')],
    ['~/.kube/config', () => inHome('.kube', 'config')],
    ['~/.netrc', () => inHome('.netrc')],
    ['~/.pgpass', () => inHome('.pgpass')],
    ['~/.npmrc', () => inHome('.npmrc')],
    ['~/.pypirc', () => inHome('.pypirc')],
  ];
  it.each(denied)('refuses %s', (_name, path) => {
    expect(sensitiveWriteReason(path())).toMatch(/protected system or credential path/);
  });

  it.each(['/tmp/safe_file.txt', '/home/user/project/main.py'])('allows %s', (path) => {
    expect(sensitiveWriteReason(path)).toBeUndefined();
  });

  // Deliberate difference: the original lets the file tools write shell start-up files. We refuse
  // them: a line added to ~/.bashrc runs in every later shell of the user, the classic way for an
  // injected instruction to persist. The terminal may still edit them with the user's approval.
  it.each(['.bashrc', '.zshrc', '.profile', '.bash_profile', '.zprofile'])(
    'refuses ~/%s (the original allows it)',
    (name) => {
      expect(sensitiveWriteReason(inHome(name))).toMatch(new RegExp(`~/\\${name}`));
    },
  );

  it('refuses a new file whose folder is a symlink into ~/.ssh', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hermes-vectors-'));
    mkdirSync(inHome('.ssh'), { recursive: true });
    symlinkSync(inHome('.ssh'), join(dir, 'keys'));
    expect(sensitiveWriteReason(join(dir, 'keys', 'authorized_keys'))).toBeDefined();
    rmSync(dir, { recursive: true, force: true });
  });

  describe("Hermes's own home", () => {
    it('refuses the root .env and every other profile file; allows workspace/ and skills/', () => {
      const ctx = freshCtx();
      const root = ctx.home.root;
      expect(protectedWriteReason(ctx, join(root, '.env'))).toMatch(/Hermes's own home/);
      expect(protectedWriteReason(ctx, join(root, 'profiles', 'coder', '.env'))).toMatch(/Hermes's own home/);
      expect(protectedWriteReason(ctx, join(root, 'cache', 'bws_cache.enc.json'))).toMatch(
        /Hermes's own home/,
      );
      expect(protectedWriteReason(ctx, join(ctx.home.dir, 'workspace', 'notes.md'))).toBeUndefined();
      expect(protectedWriteReason(ctx, join(ctx.home.dir, 'skills', 'mine', 'SKILL.md'))).toBeUndefined();
    });

    // Deliberate difference: the original lets the agent write its own profile's .env, auth.json,
    // config.yaml and webhook_subscriptions.json. We refuse every file of the Hermes home but
    // workspace/ and skills/: with write access to config.yaml or auth.json a prompt-injected
    // model could switch approvals off, add a provider that forwards its traffic, or plant keys.
    // The user changes them with `hermes config set …` / `hermes auth`.
    it.each(['.env', 'auth.json', 'config.yaml', 'webhook_subscriptions.json'])(
      "refuses the active profile's %s (the original allows it)",
      (name) => {
        const ctx = freshCtx();
        expect(protectedWriteReason(ctx, join(ctx.home.dir, name))).toMatch(/Hermes's own home/);
      },
    );
  });
});

describe('read guard for environment files (original tests/agent/test_file_safety.py)', () => {
  const ctx = freshCtx;

  it.each([
    '.env',
    '.env.local',
    '.env.development',
    '.env.production',
    '.env.test',
    '.env.staging',
    '.envrc',
    '.ENV',
    '.Env.Local',
    '.ENV.PRODUCTION',
    '.ENVRC',
  ])('refuses reading %s in any folder', (name) => {
    expect(isSecretEnvName(name)).toBe(true);
    for (const dir of ['/tmp/project', '/workspace']) {
      const why = protectedReadReason(ctx(), join(dir, name));
      expect(why).toMatch(/^Access denied: .*secret-bearing environment file/);
    }
  });

  it.each(['.env.example', '.env.sample', '.env.template', '.env.local.example', 'env.py', 'dotenv.md'])(
    'allows reading %s',
    (name) => {
      expect(isSecretEnvName(name)).toBe(false);
      expect(protectedReadReason(ctx(), join('/tmp/project', name))).toBeUndefined();
    },
  );

  it('refuses a symlink whose target is a .env file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hermes-vectors-'));
    writeFileSync(join(dir, '.env'), 'API_KEY=secret\n');
    symlinkSync(join(dir, '.env'), join(dir, 'notes.txt'));
    expect(protectedReadReason(ctx(), join(dir, 'notes.txt'))).toMatch(/Access denied/);
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps Hermes's own key files under their own refusal", () => {
    const c = ctx();
    expect(protectedReadReason(c, join(c.home.dir, '.env'))).toMatch(/holds Hermes's keys/);
    expect(protectedReadReason(c, join(c.home.dir, 'auth.json'))).toMatch(/holds Hermes's keys/);
  });
});
