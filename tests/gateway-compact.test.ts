/**
 * `/compact` through a real daemon (run `npm run build` first):
 * the summary comes from the scripted model, the session continues in a child session, and
 * clients keep working with the old id as well as the new one.
 */
import { describe, expect, it } from 'vitest';
import type { WireEventOf } from '@hermes/core/protocol';
import { is, useGateway, writeConfig } from './support/gateway-session-kit.js';

const gw = useGateway('hermes-compact-', (root, url) =>
  writeConfig(
    root,
    url,
    '  context_length: 10000\ncompression:\n  protect_last_n: 2\n  target_ratio: 0.05\n',
  ),
);

describe('/compact through the daemon', () => {
  it('compresses into a child session; the old id keeps routing to it', async () => {
    const { client, root, model } = gw;
    const { session } = await client.c.request('session.create', { title: 'compact me', cwd: root });
    const oldId = session.id;
    await client.c.request('session.attach', { session_id: oldId });
    for (let i = 0; i < 4; i++) {
      model.push({ text: `answer ${i}` });
      await client.c.request('prompt.submit', { session_id: oldId, text: `question ${i}` });
      await client.count(is('turn.end', oldId), i + 1, `turn ${i} ends`);
    }

    const before = model.requests.length;
    model.push({ text: 'SUMMARY: four questions answered' });
    const r = await client.c.request('slash.exec', { session_id: oldId, command: '/compact the answers' });
    expect(r.handled).toBe(true);
    expect(r.output).toMatch(
      /compression #1\): context \S+ \(\d+% of 10\.0k\) → ~\S+ \(\d+% of 10\.0k\) tokens/,
    );
    expect(model.requests[before]!.body.messages[1].content).toContain('the answers');

    // the event names both ids (envelope: the old one); session.info then carries the new one
    const ev = await client.until(is('session.compressed', oldId), 'session.compressed');
    const newId = String(ev.payload.session_id);
    expect(ev.payload).toMatchObject({ parent_session_id: oldId, compressions: 1, reason: 'manual' });
    expect(newId).not.toBe(oldId);
    expect(r.output).toContain(newId);
    const info = await client.until(
      (e): e is WireEventOf<'session.info'> => e.type === 'session.info' && e.session_id === newId,
      'session.info with the new id',
    );
    expect(info.payload.session).toMatchObject({ id: newId, parent_session_id: oldId, live: true });
    // clients learn that the session is idle again once the compaction is over
    await client.until(
      (e) =>
        e.type === 'session.info' &&
        e.session_id === newId &&
        (e.payload.session as { busy?: boolean }).busy === false,
      'session.info saying the session is idle after /compact',
    );

    // a prompt sent with the OLD id runs in the child, with the summary and the tail
    model.push({ text: 'continued after compact' });
    await client.c.request('prompt.submit', { session_id: oldId, text: 'question 4' });
    await client.until(is('turn.end', newId), 'the turn in the child ends');
    const sent = model.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>;
    expect(sent.some((m) => m.content.includes('SUMMARY: four questions answered'))).toBe(true);
    expect(sent.some((m) => m.content === 'question 2')).toBe(false);
    expect(sent.at(-1)).toMatchObject({ role: 'user', content: 'question 4' });

    // either id attaches to the same live session; the list links child and parent
    const byOld = await client.c.request('session.attach', { session_id: oldId });
    const byNew = await client.c.request('session.attach', { session_id: newId });
    expect(byOld.session.id).toBe(newId);
    expect(byNew.session.id).toBe(newId);
    const { sessions } = await client.c.request('session.list', {});
    expect(sessions.find((s) => s.id === newId)).toMatchObject({ parent_session_id: oldId, live: true });
    expect(sessions.find((s) => s.id === oldId)).toMatchObject({ live: false, state: 'ended' });
    const usage = await client.c.request('slash.exec', { session_id: oldId, command: '/status' });
    expect(usage.output).toContain(`Session ${newId}`);
  });
});
