/**
 * The REST routes of the Discord stand-in (fake-discord-rest.ts), called as discord.js would:
 * the bot token is checked, messages are created, refused with Discord's error bodies, deduplicated
 * by nonce and edited with every edit recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from './fake-discord.js';

let discord: FakeDiscord;
beforeAll(async () => {
  discord = await startFakeDiscord();
});
afterAll(() => discord.close());

/** One REST call under `/api/v10` with the bot's token (or `token`). */
async function rest(method: string, path: string, body?: unknown, token = discord.token) {
  const res = await fetch(`${discord.url}/v10${path}`, {
    method,
    headers: { authorization: `Bot ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('the Discord stand-in’s REST routes', () => {
  it('refuses a wrong token with 401 and records the call', async () => {
    const r = await rest('GET', '/users/@me', undefined, 'not-the-token');
    expect(r).toMatchObject({ status: 401, body: { code: 0 } });
    expect(discord.calls.at(-1)).toMatchObject({ method: 'GET', path: '/users/@me' });
    expect((await rest('GET', '/users/@me')).body.id).toBe(discord.bot.id);
  });

  it('creates a message once per nonce and refuses one over 2000 characters', async () => {
    const path = `/channels/${discord.generalId}/messages`;
    const first = await rest('POST', path, { content: 'hello', nonce: 'n1', enforce_nonce: true });
    const again = await rest('POST', path, { content: 'hello', nonce: 'n1', enforce_nonce: true });
    expect(first.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect([...discord.messages.values()].filter((m) => m.nonce === 'n1')).toHaveLength(1);
    expect(await rest('POST', path, { content: 'x'.repeat(2001) })).toMatchObject({
      status: 400,
      body: { code: 50035 },
    });
    expect(await rest('POST', path, { content: '' })).toMatchObject({ status: 400, body: { code: 50006 } });
  });

  it('edits a message, recording each edit; an unknown one is 10008', async () => {
    const path = `/channels/${discord.generalId}/messages`;
    const made = await rest('POST', path, { content: 'draft' });
    const edited = await rest('PATCH', `${path}/${made.body.id}`, { content: 'final' });
    expect(edited).toMatchObject({ status: 200, body: { content: 'final' } });
    expect(discord.messages.get(made.body.id)?.edits).toEqual(['final']);
    expect(await rest('PATCH', `${path}/1`, { content: 'x' })).toMatchObject({
      status: 404,
      body: { code: 10008 },
    });
  });
});
