import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RpcErrorCode, type WireEvent } from '@hermes/core/protocol';
import { LoadedProfiles } from './loaded-profiles.js';

const opened: LoadedProfiles[] = [];
const roots: string[] = [];
afterEach(() => {
  for (const p of opened.splice(0)) p.close();
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function profiles(over: { hasLive?: boolean; events?: WireEvent[]; changed?: string[] } = {}): {
  root: string;
  loaded: LoadedProfiles;
} {
  const root = mkdtempSync(join(tmpdir(), 'hermes-loaded-'));
  roots.push(root);
  mkdirSync(join(root, 'profiles', 'work'), { recursive: true });
  const loaded = new LoadedProfiles({
    root,
    configPollMs: 0,
    broadcast: (e) => over.events?.push(e),
    hasLiveSessions: () => over.hasLive ?? false,
    onConfigChange: (p) => over.changed?.push(p.name),
  });
  opened.push(loaded);
  return { root, loaded };
}

describe('LoadedProfiles', () => {
  it('loads a profile once and lists the profiles under the root', () => {
    const { loaded } = profiles();
    const work = loaded.get('work');
    expect(loaded.get('work')).toBe(work);
    expect(loaded.names()).toEqual(['default', 'work']);
    expect(loaded.unavailable()).toEqual([]);
  });

  it('refuses a profile that does not exist', () => {
    const { loaded } = profiles();
    expect(() => loaded.get('nope')).toThrow(expect.objectContaining({ code: RpcErrorCode.ProfileNotFound }));
  });

  it('announces an edited config.yaml with config.changed, then lets the sessions follow', () => {
    const events: WireEvent[] = [];
    const changed: string[] = [];
    const { root, loaded } = profiles({ events, changed });
    const work = loaded.get('work');
    writeFileSync(join(root, 'profiles', 'work', 'config.yaml'), 'model:\n  default: other/model\n');
    work.refresh();
    const announced = events.filter((e) => e.type === 'config.changed');
    expect(announced).toHaveLength(1);
    expect(announced[0]!.payload).toMatchObject({ profile: 'work', model: 'other/model' });
    expect(changed).toEqual(['work']);
  });
});
