/**
 * `/model provider/model` in a session pins that session's provider too (run `npm run build`
 * first): a later switch from another session moves the profile's default, and new sessions,
 * but the pinned session keeps calling its provider with its key.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { is, useGateway } from './support/gateway-session-kit.js';

const gw = useGateway('hermes-provider-pin-', (root, url) => {
  writeFileSync(
    join(root, 'config.yaml'),
    `model:\n  provider: custom\n  base_url: ${url}\n  default: fake\n`,
  );
  writeFileSync(
    join(root, '.env'),
    `DEEPSEEK_API_KEY=sk-deep-pin\nDEEPSEEK_BASE_URL=${url}\nGLM_API_KEY=sk-glm-pin\nGLM_BASE_URL=${url}\n`,
    { mode: 0o600 },
  );
});

describe('a session switched with /model provider/model keeps its provider', () => {
  it('another switch moves the default, not the pinned session', async () => {
    const { client, root, model } = gw;
    const a = (await client.c.request('session.create', { cwd: root })).session;
    await client.c.request('session.attach', { session_id: a.id });
    const r = await client.c.request('model.set', { model: 'deepseek/deepseek-chat', session_id: a.id });
    expect(r).toMatchObject({ model: 'deepseek-chat', provider: 'deepseek' });

    // another session (or hermes model set) moves the profile to z.ai
    const b = (await client.c.request('session.create', { cwd: root })).session;
    await client.c.request('session.attach', { session_id: b.id });
    await client.c.request('model.set', { model: 'glm/glm-4.6', session_id: b.id });

    const turn = async (sid: string): Promise<{ model: unknown; auth: unknown }> => {
      const after = client.lastSeq(sid);
      model.push({ text: 'ok' });
      await client.c.request('prompt.submit', { session_id: sid, text: 'hi' });
      await client.until(is('turn.end', sid, after), 'the turn ends');
      const req = model.requests.filter((x) => x.path === '/v1/chat/completions').at(-1)!;
      return { model: req.body.model, auth: req.headers.authorization };
    };
    expect(await turn(a.id)).toEqual({ model: 'deepseek-chat', auth: 'Bearer sk-deep-pin' });
    expect(await turn(b.id)).toEqual({ model: 'glm-4.6', auth: 'Bearer sk-glm-pin' });
    const c = (await client.c.request('session.create', { cwd: root })).session;
    await client.c.request('session.attach', { session_id: c.id });
    expect(await turn(c.id)).toEqual({ model: 'glm-4.6', auth: 'Bearer sk-glm-pin' });
  });
});
