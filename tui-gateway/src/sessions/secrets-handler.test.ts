import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Methods, type MethodName } from '@hermes/core/protocol';
import { parse } from 'dotenv';
import { afterEach, describe, expect, it } from 'vitest';
import type { Connection, Handler, HandlerRegistry } from '../rpc/types.js';
import { registerSecretsHandlers } from './secrets-handler.js';
import { SessionRegistry } from './session-registry.js';

const registries: SessionRegistry[] = [];
afterEach(async () => {
  for (const r of registries.splice(0)) await r.drain(1000);
});

/** The value the daemon's reader gets back from the root profile's .env. */
function registryValue(root: string): string | undefined {
  return parse(readFileSync(join(root, '.env'))).IRC_PASSWORD;
}

function setup() {
  const root = mkdtempSync(join(tmpdir(), 'hermes-secrets-'));
  mkdirSync(join(root, 'profiles', 'work'), { recursive: true });
  writeFileSync(join(root, '.env'), '# keep me\nOTHER=1\n', { mode: 0o644 });
  const registry = new SessionRegistry({ root, epoch: 'e1' });
  registries.push(registry);
  const handlers = new Map<string, Handler<MethodName>>();
  const rpc: HandlerRegistry = {
    register: (method, handler) => void handlers.set(method, handler as unknown as Handler<MethodName>),
  };
  registerSecretsHandlers(rpc, registry);
  const conn = { id: 'c-1', clientName: 'test', profile: 'default' } as unknown as Connection;
  const call = async (method: 'secrets.set' | 'secrets.status', params: unknown): Promise<unknown> => {
    const parsed = Methods[method].params.parse(params);
    return handlers.get(method)!(parsed as never, conn);
  };
  return { root, registry, call };
}

describe('secrets.set / secrets.status', () => {
  it('writes the key 0600 into the profile’s .env, keeps other lines, and reports only presence', async () => {
    const { root, registry, call } = setup();
    expect(await call('secrets.status', { names: ['OPENROUTER_API_KEY'] })).toEqual({
      set: { OPENROUTER_API_KEY: false },
    });
    const result = await call('secrets.set', { name: 'OPENROUTER_API_KEY', value: 'sk-or-secret-123' });
    expect(result).toEqual({ ok: true });
    expect(JSON.stringify(result)).not.toContain('sk-or-secret-123');
    const env = readFileSync(join(root, '.env'), 'utf8');
    expect(env).toContain('# keep me');
    expect(env).toContain('OTHER=1');
    expect(env).toContain('OPENROUTER_API_KEY=sk-or-secret-123');
    expect(statSync(join(root, '.env')).mode & 0o777).toBe(0o600);
    // the profile was reloaded: sessions created from now on see the key
    expect(registry.profile('default').secrets.OPENROUTER_API_KEY).toBe('sk-or-secret-123');
    const status = await call('secrets.status', { names: ['OPENROUTER_API_KEY', 'HERMES_TEST_UNSET_KEY'] });
    expect(status).toEqual({ set: { OPENROUTER_API_KEY: true, HERMES_TEST_UNSET_KEY: false } });
  });

  it('a value the .env cannot hold is refused as InvalidParams naming the variable, never the value', async () => {
    const { root, call } = setup();
    const err = (await call('secrets.set', { name: 'IRC_PASSWORD', value: 'secret\'"`#' }).catch(
      (e: unknown) => e,
    )) as {
      code?: number;
      message?: string;
    };
    expect(err.code).toBe(-32602);
    expect(err.message).toMatch(/IRC_PASSWORD/);
    expect(err.message).not.toContain('secret');
    expect(readFileSync(join(root, '.env'), 'utf8')).toBe('# keep me\nOTHER=1\n');
    // a value with quotes and backslashes round-trips
    await call('secrets.set', { name: 'IRC_PASSWORD', value: 'a\\b"c' });
    expect(registryValue(root)).toBe('a\\b"c');
  });

  it('writes into the named profile only', async () => {
    const { root, call } = setup();
    await call('secrets.set', { profile: 'work', name: 'HERMES_WORK_KEY', value: 'sk-work' });
    expect(readFileSync(join(root, 'profiles', 'work', '.env'), 'utf8')).toBe('HERMES_WORK_KEY=sk-work\n');
    expect(readFileSync(join(root, '.env'), 'utf8')).not.toContain('sk-work');
    expect(await call('secrets.status', { names: ['HERMES_WORK_KEY'] })).toEqual({
      set: { HERMES_WORK_KEY: false },
    });
    expect(await call('secrets.status', { profile: 'work', names: ['HERMES_WORK_KEY'] })).toEqual({
      set: { HERMES_WORK_KEY: true },
    });
  });

  it('refuses bad names and multi-line values without echoing the value', () => {
    const bad = Methods['secrets.set'].params.safeParse({ name: 'OPENAI_API_KEY', value: 'sk-a\nEVIL=1' });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).not.toContain('sk-a');
    expect(Methods['secrets.set'].params.safeParse({ name: 'lower', value: 'x' }).success).toBe(false);
  });
});

describe('secrets.set refuses process-control variables', () => {
  it.each(['PATH', 'NODE_OPTIONS', 'LD_PRELOAD', 'HERMES_HOME'])('refuses %s', (name) => {
    expect(Methods['secrets.set'].params.safeParse({ name, value: '/tmp/evil' }).success).toBe(false);
  });
});
