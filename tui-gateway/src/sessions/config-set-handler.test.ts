/**
 * `config.set` of approval settings (config-set-handler.ts) and how loosenings are announced
 * (`config.changed` `loosened`, profile-config.ts): in process, with a real registry and files.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setConfigValue, CONFIG_VERSION } from '@hermes/core/config';
import { HermesHome } from '@hermes/core/home';
import { Methods, RpcErrorCode, type MethodName, type WireEvent } from '@hermes/core/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import type { Connection, Handler, HandlerRegistry } from '../rpc/types.js';
import { registerConfigSet } from './config-set-handler.js';
import { SessionRegistry } from './session-registry.js';

const registries: SessionRegistry[] = [];
afterEach(async () => {
  for (const r of registries.splice(0)) await r.drain(1000);
});

function setup() {
  const root = mkdtempSync(join(tmpdir(), 'hermes-cfgset-'));
  const configFile = join(root, 'config.yaml');
  writeFileSync(
    configFile,
    `_config_version: ${CONFIG_VERSION}\nmodel:\n  provider: custom\n  base_url: http://127.0.0.1:9/v1\n  default: fake\napprovals:\n  mode: manual\n`,
  );
  const events: WireEvent[] = [];
  const registry = new SessionRegistry({
    root,
    epoch: 'e1',
    configPollMs: 0,
    broadcast: (e) => events.push(e),
  });
  registries.push(registry);
  const handlers = new Map<string, Handler<MethodName>>();
  const rpc: HandlerRegistry = {
    register: (method, handler) => void handlers.set(method, handler as unknown as Handler<MethodName>),
  };
  registerConfigSet(rpc, registry);
  const connection = (id: string, approvals: boolean): Connection =>
    ({
      id,
      clientName: 'test',
      profile: 'default',
      capabilities: { approvals },
      closed: false,
    }) as Connection;
  const set = (conn: Connection, key: string, value: unknown) =>
    handlers.get('config.set')!(Methods['config.set'].params.parse({ key, value }) as never, conn);
  const loosened = () =>
    events.filter((e) => e.type === 'config.changed').map((e) => e.payload.loosened ?? null);
  const mode = () => registry.profile('default').config.approvals.mode;
  return { root, configFile, registry, connection, set, loosened, mode };
}

describe('config.set of approval settings', () => {
  it('a connection not attached as an approver cannot loosen them; nothing is written', async () => {
    const { configFile, registry, connection, set, mode } = setup();
    const before = readFileSync(configFile, 'utf8');
    const stranger = connection('c-script', true);
    await expect(set(stranger, 'approvals.mode', 'off')).rejects.toMatchObject({
      code: RpcErrorCode.NotPermitted,
      data: { keys: ['approvals.mode'] },
    });
    await expect(set(stranger, 'command_allowlist', ['recursive-delete'])).rejects.toMatchObject({
      code: RpcErrorCode.NotPermitted,
    });
    // attached, but it does not answer approvals: refused too
    const live = registry.create('default', { cwd: tmpdir() });
    const watcher = connection('c-watch', false);
    live.clients.add(watcher);
    await expect(set(watcher, 'approvals', { mode: 'smart' })).rejects.toMatchObject({
      code: RpcErrorCode.NotPermitted,
    });
    expect(readFileSync(configFile, 'utf8')).toBe(before);
    expect(mode()).toBe('manual');
    // tightenings and other keys need no attachment
    expect(await set(stranger, 'approvals.timeout', 60)).toEqual({ ok: true });
    expect(await set(stranger, 'model.default', 'other')).toEqual({ ok: true });
  });

  it('an attached approver may loosen them, and every client is told who did', async () => {
    const { registry, connection, set, loosened, mode } = setup();
    const live = registry.create('default', { cwd: tmpdir() });
    const ui = connection('c-ui', true);
    live.clients.add(ui);
    expect(await set(ui, 'approvals.mode', 'off')).toEqual({ ok: true });
    expect(mode()).toBe('off');
    expect(loosened()).toEqual([[{ key: 'approvals.mode', from: 'manual', to: 'off', by: 'test:c-ui' }]]);
  });

  it('a hand edit that loosens is announced as outside Hermes; an always answer written here is not', () => {
    const { root, configFile, registry, loosened } = setup();
    const profile = registry.profile('default');
    void profile.config;
    writeFileSync(configFile, `${readFileSync(configFile, 'utf8').replace('mode: manual', 'mode: off')}`);
    profile.refresh();
    expect(loosened()).toEqual([[{ key: 'approvals.mode', from: 'manual', to: 'off' }]]);

    // the guard's `always` writes command_allowlist in this process (setConfigValue), unannounced
    setConfigValue(new HermesHome(root), 'command_allowlist', ['recursive-delete']);
    profile.refresh();
    expect(loosened()).toHaveLength(2);
    expect(loosened()[1]).toBeNull();
    expect(profile.config.command_allowlist).toEqual(['recursive-delete']);
  });
});
