/**
 * Config changes reach a running daemon (tui-gateway/src/sessions/profile-config.ts,
 * session-config.ts): `hermes config set` and hand edits of config.yaml / `.env` apply to the next
 * turn of an existing session and to new sessions without a restart; a broken config.yaml keeps
 * the last good config and is reported (`config.changed` with `error`, an `error` event of kind
 * `config`). Real daemon, real CLI, fake model server. Run `npm run build` first.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventPayload, WireEvent, WireEventOf } from '@hermes/core/protocol';
import { hermes } from './support/gateway-process.js';
import { useGateway, type RecordingClient } from './support/gateway-session-kit.js';

/** config.yaml of the test: the fake model with `model` as default and its key from FAKE_KEY. */
function configText(url: string, model: string, extra = ''): string {
  return `model:\n  provider: custom\n  base_url: ${url}\n  default: ${model}\n  api_key_env: FAKE_KEY\n${extra}`;
}

const gw = useGateway('hermes-cfgreload-', (root, url) => {
  writeFileSync(join(root, 'config.yaml'), configText(url, 'model-alpha'));
  writeFileSync(join(root, '.env'), 'FAKE_KEY=key-one\n', { mode: 0o600 });
});

/** Runs one turn and returns the chat request it sent to the model. */
async function turn(client: RecordingClient, sessionId: string, text: string) {
  const { model } = gw;
  const after = client.lastSeq(sessionId);
  const before = model.requests.length;
  await client.c.request('prompt.submit', { session_id: sessionId, text });
  const end = await client.until(
    (e): e is WireEventOf<'turn.end'> => e.type === 'turn.end' && e.session_id === sessionId && e.seq > after,
    `turn "${text}" ends`,
  );
  expect(end.payload.status).toBe('complete');
  const sent = model.requests.slice(before).filter((r) => r.path === '/v1/chat/completions');
  expect(sent).toHaveLength(1);
  return sent[0]!;
}

const changed =
  (pred: (p: EventPayload<'config.changed'>) => boolean) =>
  (e: WireEvent): e is WireEventOf<'config.changed'> =>
    e.type === 'config.changed' && e.session_id === '*' && pred(e.payload);

describe('config changes reach the running daemon', () => {
  it('applies model.default and .env edits to the next turn, keeps the last good config when broken', async () => {
    const { client, root, model } = gw;
    const { session } = await client.c.request('session.create', { cwd: root });
    await client.c.request('session.attach', { session_id: session.id });
    const pinned = (await client.c.request('session.create', { cwd: root, model: 'pinned-model' })).session;

    const first = await turn(client, session.id, 'one');
    expect(first.body.model).toBe('model-alpha');
    expect(first.headers.authorization).toBe('Bearer key-one');
    const system = first.body.messages[0];
    const toolNames = (r: typeof first): string[] =>
      (r.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(toolNames(first)).not.toContain('web_search'); // no search provider key yet

    // `hermes config set` writes config.yaml directly (no RPC): the next turn uses the new model
    const set = await hermes(root, ['config', 'set', 'model.default', 'model-beta']);
    expect(set.code, set.stderr).toBe(0);
    const second = await turn(client, session.id, 'two');
    expect(second.body.model).toBe('model-beta');
    expect(second.body.messages[0]).toEqual(system); // the system prompt stays byte-stable
    await client.until(
      changed((p) => p.model === 'model-beta' && (p.files as string[]).includes('config.yaml')),
      'config.changed for model-beta',
    );
    // the status bar's source: session.info carries the new model
    await client.until(
      (e) =>
        e.type === 'session.info' &&
        e.session_id === session.id &&
        (e.payload.session as { model?: string }).model === 'model-beta',
      'session.info with model-beta',
    );
    // a session created with an explicit model keeps it
    await client.c.request('session.attach', { session_id: pinned.id });
    expect((await turn(client, pinned.id, 'pinned')).body.model).toBe('pinned-model');
    // a new session starts on the new model
    const fresh = (await client.c.request('session.create', { cwd: root })).session;
    expect(fresh.model).toBe('model-beta');

    // a broken edit: the daemon goes on with the last good config and says what is wrong
    writeFileSync(
      join(root, 'config.yaml'),
      configText(model.url, 'model-gamma', 'approvals:\n  mode: sometimes\n'),
    );
    const third = await turn(client, session.id, 'three');
    expect(third.body.model).toBe('model-beta');
    const broken = await client.until(
      changed((p) => p.error !== undefined),
      'config.changed with the error',
    );
    expect(broken.payload.error).toMatchObject({ file: join(root, 'config.yaml'), key: 'approvals.mode' });
    const reported = await client.until(
      (e): e is WireEventOf<'error'> =>
        e.type === 'error' && e.session_id === session.id && e.payload.kind === 'config',
      'the config error in the session',
    );
    expect(reported.payload.message).toContain('approvals.mode');
    expect(reported.payload.message).toContain(join(root, 'config.yaml'));
    expect(await client.c.request('config.get', { key: 'model.default' })).toEqual({ value: 'model-beta' });

    // fixed, and a new key in .env (hand edits): both reach the next request
    const errorsBefore = client.events.filter((e) => e.type === 'error').length;
    writeFileSync(join(root, 'config.yaml'), configText(model.url, 'model-delta'));
    writeFileSync(join(root, '.env'), 'FAKE_KEY=key-two\nTAVILY_API_KEY=tv-key\n', { mode: 0o600 });
    const fourth = await turn(client, session.id, 'four');
    expect(fourth.body.model).toBe('model-delta');
    expect(fourth.headers.authorization).toBe('Bearer key-two');
    expect(fourth.body.messages[0]).toEqual(system);
    expect(toolNames(fourth)).toContain('web_search'); // a tool the new key makes available
    await client.until(
      changed((p) => p.model === 'model-delta' && p.error === undefined),
      'config.changed without error',
    );
    expect(client.events.filter((e) => e.type === 'error')).toHaveLength(errorsBefore);
  });
});
