import { describe, expect, it } from 'vitest';
import { SessionController } from '../app/controller.js';
import { FakeClient } from '../testing/fake-client.js';
import { waitFor } from '@hermes/client/testing';
import { modelReady, readModelStatus, saveModelSetup } from './model-setup.js';

const none = {};
const orKey = { OPENROUTER_API_KEY: true };

describe('modelReady', () => {
  it('needs a server URL, or a key and a model id, as the daemon resolves providers', () => {
    expect(modelReady({}, none)).toBe(false);
    expect(modelReady({ default: 'x' }, none)).toBe(false);
    expect(modelReady({}, orKey)).toBe(false); // a key but no model id
    expect(modelReady({ default: 'x' }, orKey)).toBe(true);
    expect(modelReady({ base_url: 'http://127.0.0.1:11434/v1' }, none)).toBe(true);
    expect(modelReady({ provider: 'custom' }, none)).toBe(false);
    expect(modelReady({ provider: 'openai', default: 'gpt' }, orKey)).toBe(false);
    expect(modelReady({ provider: 'openai', default: 'gpt' }, { OPENAI_API_KEY: true })).toBe(true);
    expect(modelReady({ provider: 'openai', default: 'gpt', api_key_env: 'MY_KEY' }, { MY_KEY: true })).toBe(
      true,
    );
  });
});

function clientWith(model: Record<string, unknown>, keys: Record<string, boolean> = {}): FakeClient {
  const c = new FakeClient();
  c.handlers.set('config.get', () => ({ value: model }));
  c.handlers.set('secrets.status', (p) => ({
    set: Object.fromEntries((p.names as string[]).map((n) => [n, keys[n] ?? false])),
  }));
  c.handlers.set('config.set', () => ({ ok: true }));
  c.handlers.set('secrets.set', () => ({ ok: true }));
  c.handlers.set('model.list', () => ({ models: [], current: '' }));
  return c;
}

describe('readModelStatus / saveModelSetup', () => {
  it('asks the daemon for the model section and key presence (never values)', async () => {
    const c = clientWith({ default: '', provider: 'auto', api_key_env: 'EXTRA_KEY' });
    await c.connect();
    const status = await readModelStatus(c);
    expect(status?.ready).toBe(false);
    expect(c.callsTo('secrets.status')).toEqual([
      { names: ['OPENROUTER_API_KEY', 'OPENAI_API_KEY', 'EXTRA_KEY'] },
    ]);
  });

  it('is null (no setup forced) when the daemon cannot tell', async () => {
    const c = new FakeClient();
    await c.connect();
    expect(await readModelStatus(c)).toBeNull();
  });

  it('writes a local server as provider custom + base_url + default', async () => {
    const c = clientWith({});
    await c.connect();
    await saveModelSetup(c, { kind: 'server', baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen' });
    expect(c.callsTo('config.set')).toEqual([
      { key: 'model.provider', value: 'custom' },
      { key: 'model.base_url', value: 'http://127.0.0.1:8080/v1' },
      { key: 'model.default', value: 'qwen' },
    ]);
    expect(c.callsTo('secrets.set')).toEqual([]);
  });

  it('a server with a key: the key saved as CUSTOM_API_KEY, named by model.api_key_env', async () => {
    const c = clientWith({});
    await c.connect();
    await saveModelSetup(c, { kind: 'server', baseUrl: 'http://10.0.0.5:8000/v1', model: 'm', key: 'sk-s' });
    expect(c.callsTo('secrets.set')).toEqual([{ name: 'CUSTOM_API_KEY', value: 'sk-s' }]);
    expect(c.callsTo('config.set')).toEqual([
      { key: 'model.provider', value: 'custom' },
      { key: 'model.api_key_env', value: 'CUSTOM_API_KEY' },
      { key: 'model.base_url', value: 'http://10.0.0.5:8000/v1' },
      { key: 'model.default', value: 'm' },
    ]);
    // chosen again without a key: the old api_key_env goes (the model layer would ask for it)
    const c2 = clientWith({});
    await c2.connect();
    await saveModelSetup(c2, { kind: 'server', baseUrl: 'http://127.0.0.1:8080/v1', model: 'q' }, {
      api_key_env: 'CUSTOM_API_KEY',
      timeout: 600,
    } as never);
    expect(c2.callsTo('secrets.set')).toEqual([]);
    expect(c2.callsTo('config.set')).toEqual([
      {
        key: 'model',
        value: { timeout: 600, provider: 'custom', base_url: 'http://127.0.0.1:8080/v1', default: 'q' },
      },
    ]);
  });

  it('sends the key through secrets.set and drops a local base_url for a hosted provider', async () => {
    const c = clientWith({});
    await c.connect();
    await saveModelSetup(c, { kind: 'hosted', provider: 'openrouter', key: 'sk-or-1', model: 'm/x' });
    expect(c.callsTo('secrets.set')).toEqual([{ name: 'OPENROUTER_API_KEY', value: 'sk-or-1' }]);
    expect(c.callsTo('config.set')).toEqual([
      { key: 'model.provider', value: 'openrouter' },
      { key: 'model.default', value: 'm/x' },
    ]);
    const c2 = clientWith({});
    await c2.connect();
    await saveModelSetup(c2, { kind: 'hosted', provider: 'openai', key: 'sk-2', model: 'gpt' }, {
      base_url: 'http://127.0.0.1:11434/v1',
      timeout: 600,
    } as never);
    expect(c2.callsTo('config.set')).toEqual([
      { key: 'model', value: { timeout: 600, provider: 'openai', default: 'gpt' } },
    ]);
  });
});

describe('SessionController with no model configured', () => {
  it('holds the session back, shows the setup, and opens the session once it is saved', async () => {
    const c = clientWith({ default: '', provider: 'auto' });
    const ctl = new SessionController({ client: c, cwd: '/w', throttleMs: 0 });
    const attach = c.handlers.get('session.attach')!;
    let noticesAtAttach = '';
    c.handlers.set('session.attach', (p) => {
      noticesAtAttach = ctl.state.items.map((i) => (i.kind === 'notice' ? i.text : '')).join('\n');
      return attach(p);
    });
    await ctl.start({ mode: 'continue' });
    expect(ctl.state.setup).toEqual({ profile: 'default' });
    expect(ctl.state.items.map((i) => i.kind === 'notice' && i.text).join('\n')).toContain(
      'No model is configured for profile "default" yet',
    );
    expect(c.callsTo('session.attach')).toEqual([]);
    await ctl.completeModelSetup({ kind: 'server', baseUrl: 'http://127.0.0.1:1234/v1', model: 'm' });
    expect(ctl.state.setup).toBeNull();
    await waitFor(() => c.callsTo('session.attach').length === 1);
    expect(noticesAtAttach).toContain('Model set up: m at http://127.0.0.1:1234/v1');
    ctl.dispose();
  });

  it('opens the session without a model when the user skips', async () => {
    const c = clientWith({});
    const ctl = new SessionController({ client: c, cwd: '/w', throttleMs: 0 });
    await ctl.start({ mode: 'new' });
    ctl.skipModelSetup();
    await waitFor(() => c.callsTo('session.attach').length === 1);
    expect(c.callsTo('session.create')).toHaveLength(1);
    expect(ctl.state.setup).toBeNull();
    ctl.dispose();
  });

  it('goes straight to the session when a model is configured', async () => {
    const c = clientWith({ default: 'x' }, { OPENAI_API_KEY: true });
    const ctl = new SessionController({ client: c, cwd: '/w', throttleMs: 0 });
    await ctl.start({ mode: 'continue' });
    expect(ctl.state.setup).toBeNull();
    expect(c.callsTo('session.attach')).toHaveLength(1);
    ctl.dispose();
  });
});
