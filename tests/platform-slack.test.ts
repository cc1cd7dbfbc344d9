/**
 * Slack end to end: the real daemon with `platforms.slack` pointed at the Slack stand-in
 * (tests/support/fake-slack.ts; Bolt and the Socket Mode client unchanged) and the scripted model.
 * A DM streamed by throttled `chat.update`s, a channel message that must mention the bot, a
 * thread kept as one session, an approval answered by button (refused for another user), a
 * clarify choice pressed, an image reaching the model as an image part, a stranger who causes no
 * download and no name lookup, a long reply split, and the `/hermes` command.
 */
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TINY_PNG } from '@hermes/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './support/gateway-process.js';
import { outcomeLines } from './support/platform-daemon.js';
import { startSlackWorld, type SlackWorld } from './support/slack-daemon.js';

let w: SlackWorld;
const scratch = mkdtempSync(join(tmpdir(), 'hermes-slack-scratch-'));

beforeAll(async () => {
  w = await startSlackWorld();
}, 60_000);

afterAll(async () => {
  await w?.stop();
});

/** Text of every user message the model was sent, flattened. */
const modelSaw = (): string => JSON.stringify(w.model.requests.map((r) => r.body.messages));

describe('Slack platform', () => {
  it('a DM is answered by one message streamed with chat.update, at most one edit a second', async () => {
    const { slack, model } = w;
    const reply = 'Once upon a time an agent lived in a daemon and answered every message. '.repeat(5).trim();
    model.push({ text: reply, chunkSize: 4, delayMs: 25 });
    const asked = slack.userMessage({ channel: 'D1', user: 'U1', text: 'tell me a story' });
    await waitFor(() => w.botMessages('D1').find((m) => m.text === reply), 'the final reply', 20_000);
    const msg = w.botMessages('D1').find((m) => m.text === reply)!;
    expect(w.botMessages('D1')).toHaveLength(1); // one message holds the whole reply
    const posted = slack.calls.find((c) => c.method === 'chat.postMessage' && c.params.channel === 'D1')!;
    const updates = slack.calls.filter((c) => c.method === 'chat.update' && c.params.ts === msg.ts);
    const streamed = updates.filter((c) => String(c.params.text).endsWith(' …'));
    expect(streamed.length).toBeGreaterThanOrEqual(1);
    expect(updates.at(-1)!.params.text).toBe(reply);
    // the edits while streaming keep Slack's pace, one a second (edit_interval_ms 1000): the k-th
    // comes ≥ k s after the first message (less the request latency seen here, ≤ 200 ms)
    const times = [posted.at, ...streamed.map((c) => c.at)];
    for (let k = 1; k < times.length; k++) {
      expect(times[k]! - times[0]!).toBeGreaterThanOrEqual(k * 1000 - 200);
      expect(times[k]! - times[k - 1]!).toBeGreaterThanOrEqual(700);
    }
    // the working reaction came and went on the user's message
    expect(slack.calls.find((c) => c.method === 'reactions.add')?.params).toMatchObject({
      channel: 'D1',
      timestamp: asked,
    });
    await slack.waitForCall(
      (c) => c.method === 'reactions.remove' && c.params.timestamp === asked,
      'reaction off',
    );
  });

  it('a channel message needs a mention; the reply and a follow-up stay in one thread, one session', async () => {
    const { slack, model } = w;
    const quiet = slack.userMessage({ channel: 'C1', user: 'U1', text: 'just chatting among people' });
    const asked = slack.userMessage({ channel: 'C1', user: 'U1', text: '<@UBOT> remember the word pelican' });
    await waitFor(
      () => w.botMessages('C1', asked).find((m) => m.text.includes('remember the word pelican')),
      'the answer in the thread',
    );
    expect(w.botMessages('C1', quiet)).toEqual([]);
    expect(modelSaw()).not.toContain('just chatting among people');
    // a follow-up in the thread, from another user, without a mention
    model.push({ text: 'the word was pelican' });
    slack.userMessage({ channel: 'C1', user: 'U2', text: 'which word was it?', thread_ts: asked });
    await waitFor(
      () => w.botMessages('C1', asked).find((m) => m.text === 'the word was pelican'),
      'the follow-up',
    );
    // the model saw the first message as history of the same conversation
    const last = JSON.stringify(model.requests.at(-1)!.body.messages);
    expect(last).toContain('remember the word pelican');
    expect(last).toContain('which word was it?');
    // every reply of the conversation went into the thread
    expect(w.botMessages('C1').every((m) => m.thread_ts === asked)).toBe(true);
  });

  it('an approval is a Block Kit question: another user is refused, the owner approves', async () => {
    const { slack, model } = w;
    const junk = join(scratch, 'junk');
    mkdirSync(junk);
    model.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${junk}` } }] },
      { echo: 'last_tool_result', prefix: 'done: ' },
    );
    const asked = slack.userMessage({ channel: 'C2', user: 'U1', text: '<@UBOT> please clean up' });
    const ask = await waitFor(
      () =>
        w.botMessages('C2', asked).find((m) => m.blocks?.some((b: { type: string }) => b.type === 'actions')),
      'the approval question',
    );
    expect(JSON.stringify(ask.blocks)).toContain(`rm -rf ${junk}`);
    slack.pressButton({ ts: ask.ts, user: 'U2', label: '✅ Approve once' });
    const refusal = await slack.waitForCall(
      (c) => c.method === 'chat.postEphemeral' && c.params.user === 'U2',
      'the refusal to Bob',
    );
    expect(refusal.params.text).toBe('Only <@U1> can answer this.');
    expect(existsSync(junk)).toBe(true);
    slack.pressButton({ ts: ask.ts, user: 'U1', label: '✅ Approve once' });
    await waitFor(() => w.botMessages('C2', asked).find((m) => m.text.startsWith('done: ')), 'the reply');
    expect(existsSync(junk)).toBe(false);
    await waitFor(
      () => JSON.stringify(ask.blocks).includes('Approved once by <@U1>'),
      'the question marked answered',
    );
    expect(JSON.stringify(ask.blocks)).not.toContain('"actions"');
  });

  it('a clarify question with choices is answered by a button', async () => {
    const { slack, model } = w;
    model.push(
      {
        toolCalls: [{ name: 'clarify', arguments: { question: 'Which colour?', choices: ['red', 'blue'] } }],
      },
      { echo: 'last_tool_result', prefix: 'picked: ' },
    );
    slack.userMessage({ channel: 'D6', user: 'U1', text: 'paint it' });
    const ask = await waitFor(
      () => w.botMessages('D6').find((m) => m.blocks?.some((b: { type: string }) => b.type === 'actions')),
      'the question',
    );
    expect(JSON.stringify(ask.blocks)).toContain('Which colour?');
    slack.pressButton({ ts: ask.ts, user: 'U1', label: 'blue' });
    await waitFor(() => w.botMessages('D6').find((m) => m.text.startsWith('picked: ')), 'the reply');
    expect(w.botMessages('D6').find((m) => m.text.startsWith('picked: '))!.text).toContain('blue');
    await waitFor(
      () => JSON.stringify(ask.blocks).includes('Answered: blue by <@U1>'),
      'the question marked answered',
    );
  });

  it('an image reaches the model as an image part', async () => {
    const { slack, model } = w;
    model.push({ text: 'a very small picture' });
    const file = slack.hostFile('dot.png', 'image/png', TINY_PNG);
    slack.userMessage({ channel: 'D2', user: 'U2', text: 'what is this?', files: [file] });
    await waitFor(() => w.botMessages('D2').find((m) => m.text === 'a very small picture'), 'the answer');
    const req = model.requests.find((r) => JSON.stringify(r.body.messages).includes('what is this?'))!;
    const user = (req.body.messages as Array<{ role: string; content: unknown }>)
      .filter((m) => m.role === 'user')
      .at(-1)!;
    expect(user.content).toEqual(
      expect.arrayContaining([
        {
          type: 'image_url',
          image_url: expect.objectContaining({ url: `data:image/png;base64,${TINY_PNG.toString('base64')}` }),
        },
      ]),
    );
    const download = slack.calls.find((c) => c.method === 'GET url_private')!;
    expect(download.token).toBe(slack.botToken);
  });

  it("a stranger's DM with a file gets a pairing code; the file is never downloaded", async () => {
    const { slack } = w;
    const before = slack.calls.filter((c) => c.method === 'GET url_private').length;
    const file = slack.hostFile('secret.txt', 'text/plain', Buffer.from('do not fetch'));
    slack.userMessage({ channel: 'D9', user: 'U9', text: 'read this', files: [file] });
    await waitFor(() => w.botMessages('D9').find((m) => /pairing code is/.test(m.text)), 'the pairing code');
    const downloads = slack.calls.filter((c) => c.method === 'GET url_private');
    expect(downloads).toHaveLength(before);
    expect(downloads.some((c) => String(c.params.path).includes('secret.txt'))).toBe(false);
  });

  it('a stranger causes no users.info or conversations.info lookup, in a DM or a channel', async () => {
    const { slack } = w;
    slack.addUser('U8', 'Mallory');
    const lookups = (): string[] =>
      slack.calls
        .filter(
          (c) =>
            (c.method === 'users.info' && c.params.user === 'U8') ||
            (c.method === 'conversations.info' && c.params.channel === 'C8'),
        )
        .map((c) => c.method);
    slack.userMessage({ channel: 'C8', user: 'U8', text: `<@${slack.botUserId}> who are you?` });
    slack.userMessage({ channel: 'D8', user: 'U8', text: 'let me in' });
    await waitFor(() => w.botMessages('D8').find((m) => /pairing code is/.test(m.text)), 'the pairing code');
    await waitFor(
      () => outcomeLines(w.root).some((l) => l.includes('chat=C8') && l.includes('reason="access denied"')),
      'the channel message refused',
    );
    expect(lookups()).toEqual([]);
    expect(w.botMessages('C8')).toEqual([]);
  });

  it('a long reply is split into messages within the limit', async () => {
    const { slack, model } = w;
    const lines = Array.from(
      { length: 90 },
      (_, i) => `Line ${i}: ${'lorem ipsum dolor sit amet '.repeat(3).trim()}`,
    );
    model.push({ text: lines.join('\n'), chunkSize: 3000 });
    slack.userMessage({ channel: 'D3', user: 'U3', text: 'write a lot' });
    await waitFor(
      () =>
        w.botMessages('D3').filter((m) => m.text.includes('Line 89:') && !m.text.endsWith(' …')).length === 1,
      'the last part',
    );
    const parts = w.botMessages('D3').map((m) => m.text);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    expect(parts.every((t) => t.length <= 3_900)).toBe(true);
    for (let i = 0; i < 90; i++) expect(parts.filter((t) => t.includes(`Line ${i}:`))).toHaveLength(1);
  });

  it('/hermes goes through the pipeline, slash commands included', async () => {
    const { slack } = w;
    slack.slashCommand({ channel: 'D4', user: 'U4', text: 'hello from the command' });
    await waitFor(
      () => w.botMessages('D4').find((m) => m.text === 'echo: hello from the command'),
      'the reply',
    );
    slack.slashCommand({ channel: 'D4', user: 'U4', text: '/whoami' });
    await waitFor(
      () => w.botMessages('D4').find((m) => /U4/.test(m.text) && m.text !== 'echo: hello from the command'),
      'whoami',
    );
  });
});
