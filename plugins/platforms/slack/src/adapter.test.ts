/**
 * The Slack adapter against the local Slack stand-in (tests/support/fake-slack.ts: the Web API
 * over HTTP and a Socket Mode WebSocket with the real envelopes and acks), Bolt unchanged.
 */
import { FakeHost, testPlatformContext } from '@hermes/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeSlack, type FakeSlack } from '../../../../tests/support/fake-slack.js';
import { SlackAdapter } from './adapter.js';
import { platform } from './index.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function start(
  config: Record<string, unknown> = {},
  tokens: { bot?: string; app?: string } = {},
): Promise<{ slack: FakeSlack; host: FakeHost; adapter: SlackAdapter }> {
  const slack = await startFakeSlack();
  cleanup.push(() => slack.close());
  slack.addUser('U1', 'Ann');
  slack.addUser('U2', 'Bob');
  const host = new FakeHost();
  const ctx = testPlatformContext({
    config: { api_base: slack.url, ...config },
    secrets: { SLACK_BOT_TOKEN: tokens.bot ?? slack.botToken, SLACK_APP_TOKEN: tokens.app ?? slack.appToken },
  });
  const adapter = host.attach((await platform.createAdapter(ctx)) as SlackAdapter);
  cleanup.push(() => adapter.disconnect());
  return { slack, host, adapter };
}

describe('SlackAdapter against the Slack stand-in', () => {
  it('connects over Socket Mode and hands DMs and mentions on, each message once', async () => {
    const { slack, host, adapter } = await start();
    await adapter.connect();
    expect(adapter.botUserId).toBe('UBOT');
    const open = slack.calls.find((c) => c.method === 'apps.connections.open')!;
    expect(open.token).toBe(slack.appToken);
    expect(slack.calls.find((c) => c.method === 'auth.test')!.token).toBe(slack.botToken);

    const dm = slack.userMessage({ channel: 'D1', user: 'U1', text: 'hello &amp; hi' });
    slack.userMessage({ channel: 'C1', user: 'U2', text: 'chatter without the bot' });
    const mention = slack.userMessage({ channel: 'C1', user: 'U2', text: '<@UBOT> what is up?' });
    await host.message(1);
    await slack.waitFor(() => slack.acks.length >= 4 && slack.acks, 'every envelope acked');
    expect(host.messages).toHaveLength(2); // the mention came as `message` and `app_mention`: once
    expect(host.messages[0]).toMatchObject({
      text: 'hello & hi',
      dedupeKey: `D1:${dm}`,
      source: {
        platform: 'slack',
        chatType: 'dm',
        chatId: 'D1',
        userId: 'U1',
        userName: 'Ann',
        messageId: dm,
      },
    });
    expect(host.messages[1]).toMatchObject({
      text: 'what is up?',
      dedupeKey: `C1:${mention}`,
      source: { chatType: 'thread', chatId: 'C1', threadId: mention, userName: 'Bob', chatName: 'chan-c1' },
    });
    // a follow-up in that thread needs no mention
    slack.userMessage({ channel: 'C1', user: 'U2', text: 'and more', thread_ts: mention });
    await host.message(2);
    expect(host.messages[2]!.source).toMatchObject({ chatType: 'thread', threadId: mention });
    // edits and deletions start nothing
    slack.userMessage({ channel: 'D1', user: 'U1', text: '', extra: { subtype: 'message_changed' } });
    slack.userMessage({ channel: 'D1', user: 'U1', text: 'last' });
    await host.message(3);
    expect(host.messages.map((m) => m.text)).toEqual(['hello & hi', 'what is up?', 'and more', 'last']);
  });

  it('downloads the files of a message only when the host authorized its sender', async () => {
    const { slack, host, adapter } = await start();
    host.authorized = (m) => m.source.userId === 'U1';
    await adapter.connect();
    const downloads = () => slack.calls.filter((c) => c.method === 'GET url_private');
    slack.userMessage({
      channel: 'D2',
      user: 'U2',
      text: 'read this',
      files: [slack.hostFile('secret.txt', 'text/plain', Buffer.from('x'))],
    });
    const refused = await host.message(0);
    expect(refused.text).toBe('read this');
    expect(refused.files).toBeUndefined();
    expect(downloads()).toEqual([]);
    slack.userMessage({
      channel: 'D1',
      user: 'U1',
      text: '',
      files: [slack.hostFile('ok.txt', 'text/plain', Buffer.from('y'))],
    });
    const ok = await host.message(1);
    expect(ok.text).toBe('(sent files without text)');
    expect(ok.files?.map((f) => f.name)).toEqual(['ok.txt']);
    expect(downloads()).toHaveLength(1);
  });

  it('looks up no user or channel name for a sender the host refuses (a DM, a mention, a command)', async () => {
    const { slack, host, adapter } = await start();
    slack.addUser('U9', 'Mallory');
    host.authorized = (m) => m.source.userId !== 'U9';
    await adapter.connect();
    slack.userMessage({ channel: 'D9', user: 'U9', text: 'let me in' });
    slack.userMessage({ channel: 'C9', user: 'U9', text: '<@UBOT> who are you?' });
    slack.slashCommand({ channel: 'C9', user: 'U9', text: 'hello' });
    await host.message(2);
    const lookups = (): string[] =>
      slack.calls
        .filter((c) => c.method === 'users.info' || c.method === 'conversations.info')
        .map((c) => `${c.method} ${String(c.params.user ?? c.params.channel)}`);
    expect(lookups()).toEqual([]);
    // the command's own payload names its sender (user_name): no lookup
    expect(host.messages.map((m) => m.source.userName)).toEqual([undefined, undefined, 'mallory']);
    expect(host.messages[0]!.source).toMatchObject({ chatType: 'dm', chatId: 'D9', userId: 'U9' });
    // an admitted sender's names are looked up as before
    slack.userMessage({ channel: 'C9', user: 'U1', text: '<@UBOT> hi' });
    const m = await host.message(3);
    expect(m.source).toMatchObject({ userName: 'Ann', chatName: 'chan-c9' });
    expect(lookups().sort()).toEqual(['conversations.info C9', 'users.info U1']);
  });

  it('sends mrkdwn into the thread, edits, and marks the message while working', async () => {
    const { slack, adapter } = await start();
    await adapter.connect();
    const opts = { threadId: '100.000001', replyTo: '100.000001' };
    await adapter.sendTyping('C1', opts);
    await adapter.sendTyping('C1', opts); // once per message
    const sent = await adapter.send('C1', 'a **bold** [link](https://x.io) …', opts);
    expect(sent.ok).toBe(true);
    const msg = slack.messages.get(sent.messageId!)!;
    expect(msg).toMatchObject({ text: 'a *bold* <https://x.io|link> …', thread_ts: '100.000001' });
    expect(await adapter.editMessage('C1', sent.messageId!, 'final **text**', opts)).toEqual({
      ok: true,
      messageId: sent.messageId,
    });
    expect(msg.text).toBe('final *text*');
    await slack.waitForCall((c) => c.method === 'reactions.remove', 'the working reaction taken off');
    expect(slack.calls.filter((c) => c.method === 'reactions.add')).toHaveLength(1);
    expect(slack.calls.find((c) => c.method === 'reactions.add')!.params).toMatchObject({
      channel: 'C1',
      timestamp: '100.000001',
      name: 'hourglass_flowing_sand',
    });
    expect(await adapter.send('', 'x')).toMatchObject({
      ok: false,
      error: 'Slack: channel_not_found',
      retryable: false,
    });
  });

  it('a working reaction no longer renewed (a turn that ended silently) is taken off', async () => {
    const slack = await startFakeSlack();
    cleanup.push(() => slack.close());
    const adapter = new SlackAdapter({
      apiBase: slack.url,
      botToken: slack.botToken,
      appToken: slack.appToken,
      requireMention: true,
      replyInThread: true,
      slashCommand: '/hermes',
      maxFileBytes: 1000,
      imagesToModel: false,
      workingReaction: 'eyes',
      pingTimeoutMs: 5000,
      workingStaleMs: 150,
    });
    new FakeHost().attach(adapter);
    cleanup.push(() => adapter.disconnect());
    await adapter.connect();
    await adapter.sendTyping('D1', { replyTo: '7.000001' });
    const removed = await slack.waitForCall((c) => c.method === 'reactions.remove', 'the sweep', 3_000);
    expect(removed.params).toMatchObject({ channel: 'D1', timestamp: '7.000001', name: 'eyes' });
  });

  it('uploads a file with the external upload flow', async () => {
    const { slack, adapter } = await start();
    await adapter.connect();
    const data = Buffer.from('report body\n'.repeat(50));
    const r = await adapter.sendFile(
      'C1',
      { name: 'report.txt', data, caption: 'the **report**' },
      { threadId: '5.5' },
    );
    expect(r.ok).toBe(true);
    const methods = slack.calls.map((c) => c.method);
    expect(methods).toEqual(
      expect.arrayContaining([
        'files.getUploadURLExternal',
        'POST upload_url',
        'files.completeUploadExternal',
      ]),
    );
    const up = [...slack.uploads.values()][0]!;
    expect(up).toMatchObject({
      filename: 'report.txt',
      channel: 'C1',
      thread_ts: '5.5',
      initial_comment: 'the *report*',
    });
    expect(up.data).toEqual(data);
  });

  it('approval buttons: another user is refused, the owner answers, the message shows who', async () => {
    const { slack, host, adapter } = await start();
    await adapter.connect();
    const ts = slack.userMessage({ channel: 'C1', user: 'U1', text: '<@UBOT> clean up' });
    await host.message(0);
    const sent = await adapter.sendApproval(
      'C1',
      {
        requestId: 'req-1',
        command: 'rm -rf build',
        description: 'deletes',
        choices: ['once', 'session', 'deny'],
      },
      { threadId: ts, replyTo: ts },
    );
    expect(slack.messages.get(sent.messageId!)!.thread_ts).toBe(ts);
    slack.pressButton({ ts: sent.messageId!, user: 'U2', label: '✅ Approve once' });
    const refusal = await slack.waitForCall((c) => c.method === 'chat.postEphemeral', 'the refusal');
    expect(refusal.params).toMatchObject({ channel: 'C1', user: 'U2', text: 'Only <@U1> can answer this.' });
    expect(host.buttons).toHaveLength(0);
    slack.pressButton({ ts: sent.messageId!, user: 'U1', label: '❌ Deny' });
    const press = await host.waitFor(() => host.buttons[0], 'the owner press');
    expect(press).toMatchObject({
      requestId: 'req-1',
      value: 'deny',
      source: { chatType: 'thread', chatId: 'C1', threadId: ts, userId: 'U1' },
    });
    adapter.onTurnEvent('C1', {
      type: 'request.resolved',
      payload: { request_id: 'req-1', kind: 'approval', choice: 'deny', by: 'slack' },
    });
    await slack.waitFor(
      () => slack.messages.get(sent.messageId!)!.updates.length > 0,
      'the question marked answered',
    );
    const blocks = JSON.stringify(slack.messages.get(sent.messageId!)!.blocks);
    expect(blocks).toContain('❌ Denied by <@U1>');
    expect(blocks).not.toContain('"actions"');
  });

  it('the slash command is acked and its text goes to the host', async () => {
    const { slack, host, adapter } = await start();
    await adapter.connect();
    const env = slack.slashCommand({ channel: 'C1', user: 'U1', text: '/reset' });
    await host.message(0);
    expect(host.messages[0]).toMatchObject({
      text: '/reset',
      source: { chatType: 'channel', chatId: 'C1', userId: 'U1' },
    });
    await slack.waitFor(() => slack.acks.includes(env), 'the ack');
  });

  it('a dropped socket is opened again; an envelope whose ack was lost comes again and is handed on once', async () => {
    const { slack, host, adapter } = await start();
    await adapter.connect();
    slack.userMessage({ channel: 'D1', user: 'U1', text: 'first', deliver: { loseAck: true } });
    await host.message(0);
    slack.dropSocket();
    await slack.waitFor(() => slack.connections() === 2 && slack.connected(), 'the second connection');
    const redelivered = await slack.waitFor(
      () => slack.envelopes.find((e) => e.retry_attempt === 1),
      'the redelivery',
    );
    expect(redelivered.payload.event.text).toBe('first');
    await slack.waitFor(() => slack.acks.includes(redelivered.envelope_id), 'the redelivery acked');
    slack.sendDisconnect('refresh_requested');
    await slack.waitFor(() => slack.connections() === 3 && slack.connected(), 'the third connection');
    slack.userMessage({ channel: 'D1', user: 'U1', text: 'second' });
    await host.message(1);
    expect(host.messages.map((m) => m.text)).toEqual(['first', 'second']);
    expect(host.fatal).toEqual([]);
  });

  it('a socket that cannot be opened again is reported lost', async () => {
    const { slack, host, adapter } = await start();
    await adapter.connect();
    slack.setOpenError('invalid_auth');
    slack.dropSocket();
    const err = await host.waitFor(() => host.fatal[0], 'the loss', 5_000);
    expect(err).toMatchObject({ permanent: true, message: expect.stringContaining('invalid_auth') });
  });

  it('a bot token revoked while connected is reported lost (permanent), sends final', async () => {
    const { slack, host, adapter } = await start();
    await adapter.connect();
    slack.revokeBotToken(true);
    expect(await adapter.send('D1', 'hello')).toMatchObject({
      ok: false,
      error: 'Slack: token_revoked',
      retryable: false,
    });
    await adapter.send('D1', 'again');
    expect(host.fatal).toHaveLength(1);
    expect(host.fatal[0]).toMatchObject({
      permanent: true,
      message: 'Slack refused the bot token: token_revoked',
    });
  });

  it('refused tokens fail connect for good (permanent)', async () => {
    const bad = await start({}, { bot: 'xoxb-wrong' });
    await expect(bad.adapter.connect()).rejects.toMatchObject({
      message: expect.stringContaining('(SLACK_BOT_TOKEN) was refused: invalid_auth'),
      permanent: true,
    });
    const badApp = await start({}, { app: 'xapp-wrong' });
    await expect(badApp.adapter.connect()).rejects.toMatchObject({
      message: expect.stringContaining('SLACK_APP_TOKEN) was refused: invalid_auth'),
      permanent: true,
    });
  });
});

describe('platforms.slack settings', () => {
  it('name the key or the .env variable', () => {
    const tokens = { SLACK_BOT_TOKEN: 'xoxb-1-2-abc', SLACK_APP_TOKEN: 'xapp-1-A-2-abc' };
    expect(platform.checkRequirements!(testPlatformContext({}))).toBe(
      'SLACK_BOT_TOKEN is not set in the profile .env; SLACK_APP_TOKEN is not set in the profile .env',
    );
    expect(
      platform.checkRequirements!(testPlatformContext({ secrets: { ...tokens, SLACK_APP_TOKEN: 'xoxb-1' } })),
    ).toBe('SLACK_APP_TOKEN: does not look like an app-level token (xapp-…)');
    expect(
      platform.validateConfig!(testPlatformContext({ config: { require_mention: 'yes' }, secrets: tokens })),
    ).toBe('platforms.slack.require_mention: expected true or false');
    expect(
      platform.validateConfig!(testPlatformContext({ config: { api_base: 'slack.com' }, secrets: tokens })),
    ).toBe('platforms.slack.api_base: expected an http(s) URL');
    expect(
      platform.validateConfig!(testPlatformContext({ config: { slash_command: 'hermes' }, secrets: tokens })),
    ).toBe('platforms.slack.slash_command: expected a command like /hermes');
    const parsed = platform.parse(
      testPlatformContext({ config: { api_base: 'http://127.0.0.1:9/api' }, secrets: tokens }),
    );
    expect(parsed.ok && parsed.setup.settings).toMatchObject({
      api_base: 'http://127.0.0.1:9/api/',
      require_mention: true,
      reply_in_thread: true,
      slash_command: '/hermes',
    });
  });
});
