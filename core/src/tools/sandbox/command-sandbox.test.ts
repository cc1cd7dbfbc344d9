import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigSchema, defaultConfig } from '../../config/schema.js';
import { HermesHome } from '../../home/home.js';
import {
  createSessionSandbox,
  hiddenPaths,
  pruneSandboxTemps,
  SANDBOX_TEMP_MAX_AGE_MS,
} from './command-sandbox.js';
import type { SandboxSupport } from './detect.js';

let base: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'hermes-cmdsbx-'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const missing: SandboxSupport = {
  available: false,
  userNamespaces: 'enabled',
  reason: 'bwrap (bubblewrap) is not installed',
};
const working: SandboxSupport = { available: true, path: '/usr/bin/bwrap', userNamespaces: 'enabled' };
const signal = new AbortController().signal;

function session(lane: 'tui' | 'cron', support: SandboxSupport, ask?: (q: string) => Promise<boolean>) {
  return createSessionSandbox({
    lane,
    home: new HermesHome(join(base, 'root')),
    sessionId: `s-${Math.random().toString(36).slice(2)}`,
    userHome: join(base, 'user'),
    support: () => support,
    ...(ask ? { askFallback: (q: string) => ask(q) } : {}),
  });
}

describe('createSessionSandbox', () => {
  it('off: wrap returns the argv unchanged, ready is ok, nothing is explained', async () => {
    const sb = session('tui', working).forConfig(defaultConfig());
    expect(sb.mode).toBe('off');
    expect(sb.wrap(['bash', '-c', 'true'], { cwd: base })).toEqual(['bash', '-c', 'true']);
    expect(await sb.ready(signal)).toEqual({ ok: true });
    expect(sb.explain('x: Read-only file system')).toBeUndefined();
  });

  it('a default unattended lane runs unsandboxed where bwrap is missing (as before)', () => {
    const sb = session('cron', missing).forConfig(defaultConfig());
    expect(sb.mode).toBe('off');
  });

  it('wraps with bwrap when on, making the session temp folder', () => {
    const sb = session('cron', working).forConfig(defaultConfig());
    const argv = sb.wrap(['bash', '-c', 'true'], { cwd: base });
    expect(argv[0]).toBe('/usr/bin/bwrap');
    expect(argv.slice(-4)).toEqual(['--', 'bash', '-c', 'true']);
  });

  it('refuse: a configured sandbox that cannot run refuses with the reason and the fix; wrap throws', async () => {
    const config = ConfigSchema.parse({ terminal: { sandbox: { cron: 'workspace' } } });
    const sb = session('cron', missing).forConfig(config);
    const r = await sb.ready(signal);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(
      /blocked by the sandbox: .*cannot run here — bwrap \(bubblewrap\) is not installed.*hermes sandbox check/,
    );
    expect(() => sb.wrap(['true'], { cwd: base })).toThrow(/not installed/);
  });

  it('ask: the user is asked once per session; yes runs unsandboxed for the rest of it', async () => {
    const questions: string[] = [];
    const s = session('tui', missing, async (q) => (questions.push(q), true));
    const config = ConfigSchema.parse({ terminal: { sandbox: 'workspace' } });
    const sb = s.forConfig(config);
    expect(await sb.ready(signal)).toEqual({ ok: true });
    expect(sb.mode).toBe('off');
    expect(sb.wrap(['true'], { cwd: base })).toEqual(['true']);
    expect(await s.forConfig(config).ready(signal)).toEqual({ ok: true });
    expect(questions.length).toBe(1);
    expect(questions[0]).toMatch(/cannot run here: bwrap \(bubblewrap\) is not installed/);
  });

  it('ask: a no refuses, and is not asked again', async () => {
    let asked = 0;
    const s = session('tui', missing, async () => (asked++, false));
    const config = ConfigSchema.parse({ terminal: { sandbox: 'workspace' } });
    expect((await s.forConfig(config).ready(signal)).ok).toBe(false);
    expect((await s.forConfig(config).ready(signal)).ok).toBe(false);
    expect(asked).toBe(1);
  });
});

describe('hiddenPaths', () => {
  it('lists the root and existing credential folders and files, nothing nested twice', () => {
    const user = join(base, 'user');
    const root = join(user, '.hermes');
    for (const d of [join(root, 'profiles', 'a'), join(user, '.ssh'), join(user, '.config', 'gcloud')])
      mkdirSync(d, { recursive: true });
    writeFileSync(join(user, '.netrc'), 'machine x');
    const h = hiddenPaths(root, user);
    expect(h.dirs).toEqual([root, join(user, '.ssh'), join(user, '.config', 'gcloud')]);
    expect(h.files).toEqual([join(user, '.netrc')]);
  });
});

describe('pruneSandboxTemps', () => {
  it('removes session temp folders unused for a week, keeping its own and recent ones', () => {
    const old = join(base, 'old');
    const recent = join(base, 'recent');
    const own = join(base, 'own');
    for (const d of [old, recent, own]) mkdirSync(d);
    const weekAgo = (Date.now() - SANDBOX_TEMP_MAX_AGE_MS - 60_000) / 1000;
    utimesSync(old, weekAgo, weekAgo);
    utimesSync(own, weekAgo, weekAgo);
    pruneSandboxTemps(base, own);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    expect(existsSync(own)).toBe(true);
  });
});
