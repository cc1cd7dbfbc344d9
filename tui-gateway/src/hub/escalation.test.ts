import { describe, expect, it } from 'vitest';
import type { ApprovalPrompt, ButtonPress, PlatformAdapter } from '@hermes/core/messaging';
import type { OpenRequest, WireEvent } from '@hermes/core/protocol';
import type { LiveSession } from '../sessions/live-session.js';
import { Escalations, whoAnswered } from './escalation.js';

const open: OpenRequest = {
  request_id: 'srq-1',
  kind: 'approval',
  params: { command: 'rm -rf build', description: 'recursive delete' },
  created_at: '',
  expires_at: '',
} as never;

function setup(o: { after?: number; to?: string; homeChannel?: string } = {}) {
  const sent: Array<{ chatId: string; prompt: ApprovalPrompt }> = [];
  const edits: string[] = [];
  const answers: Array<{ value: unknown; by: string }> = [];
  let stillOpen = true;
  const adapter = {
    sendApproval: (chatId: string, prompt: ApprovalPrompt) => {
      sent.push({ chatId, prompt });
      return Promise.resolve({ ok: true, messageId: '9' });
    },
    editMessage: (_c: string, _m: string, text: string) => {
      edits.push(text);
      return Promise.resolve({ ok: true });
    },
  } as unknown as PlatformAdapter;
  const live = {
    id: 's1',
    profile: 'default',
    openRequests: () => (stillOpen ? [open] : []),
    answer: (_k: string, _id: string, value: unknown, by: string) => {
      answers.push({ value, by });
      return { status: 'accepted' };
    },
  } as unknown as LiveSession;
  const escalatedTo: string[] = [];
  const logs: string[] = [];
  const esc = new Escalations({
    profile: () =>
      ({
        config: {
          approvals: {
            escalate_after: o.after ?? 0.02,
            ...(o.to !== undefined ? { escalate_to: o.to } : { escalate_to: 'telegram' }),
          },
          platforms: { telegram: o.homeChannel ? { home_channel: o.homeChannel } : {} },
        },
        secrets: {},
      }) as never,
    adapter: () => adapter,
    escalated: (_l, _id, p) => escalatedTo.push(p),
    log: (l) => logs.push(l),
  });
  return { esc, live, sent, edits, answers, escalatedTo, logs, close: () => (stillOpen = false) };
}

const press = (value: string, chatId = '111'): ButtonPress => ({
  source: { platform: 'telegram', chatId, userId: chatId, userName: 'Ann', chatType: 'dm' } as never,
  requestId: 'srq-1',
  value,
});

async function until(cond: () => boolean): Promise<void> {
  const deadline = Date.now() + 3000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('escalated approvals', () => {
  it('after the delay the approval goes to the home channel with once and deny only', async () => {
    const t = setup({ homeChannel: '111' });
    t.esc.shown(t.live, open);
    expect(t.sent).toHaveLength(0);
    await until(() => t.escalatedTo.length > 0);
    expect(t.sent[0]).toMatchObject({
      chatId: '111',
      prompt: { requestId: 'srq-1', command: 'rm -rf build', choices: ['once', 'deny'] },
    });
    expect(t.escalatedTo).toEqual(['telegram']);
  });

  it('a press of once answers the session request as the platform user; always and other chats are refused', async () => {
    const t = setup({ homeChannel: '111' });
    t.esc.shown(t.live, open);
    await until(() => t.escalatedTo.length > 0);
    expect(t.esc.button('default', 'telegram', press('always'), true)).toMatchObject({ kind: 'refused' });
    expect(t.esc.button('default', 'telegram', press('session'), true)).toMatchObject({ kind: 'refused' });
    expect(t.esc.button('default', 'telegram', press('once', '222'), true)).toMatchObject({
      kind: 'refused',
    });
    // in the home chat, by someone the platform does not let approve: refused
    expect(t.esc.button('default', 'telegram', press('once'), false)).toMatchObject({ kind: 'refused' });
    expect(t.answers).toEqual([]);
    expect(t.esc.button('default', 'telegram', press('once'), true)).toEqual({ kind: 'answered' });
    expect(t.answers).toEqual([{ value: 'once', by: 'telegram:Ann' }]);
    expect(t.esc.button('default', 'discord', press('once'), true)).toBeUndefined(); // not this platform's
  });

  it('an answer elsewhere ends it: before the delay nothing is sent; after, the chat message says who answered', async () => {
    const early = setup({ homeChannel: '111', after: 0.05 });
    early.esc.shown(early.live, open);
    const resolved = {
      type: 'request.resolved',
      payload: { request_id: 'srq-1', kind: 'approval', choice: 'deny', by: 'client:abc' },
    } as WireEvent;
    early.esc.observe(early.live, resolved);
    await new Promise((r) => setTimeout(r, 120));
    expect(early.sent).toEqual([]);

    const late = setup({ homeChannel: '111' });
    late.esc.shown(late.live, open);
    await until(() => late.escalatedTo.length > 0);
    late.esc.observe(late.live, resolved);
    await until(() => late.edits.length > 0);
    expect(late.edits[0]).toMatch(/✗ Denied — answered at a terminal$/);
    expect(late.esc.button('default', 'telegram', press('once'))).toBeUndefined(); // over
  });

  it('off without escalate_to or with 0 s; without a home channel it is logged and waits', async () => {
    for (const o of [{ to: '' }, { after: 0 }]) {
      const t = setup({ homeChannel: '111', ...o });
      t.esc.shown(t.live, open);
      await new Promise((r) => setTimeout(r, 60));
      expect(t.sent).toEqual([]);
    }
    const t = setup({});
    t.esc.shown(t.live, open);
    await until(() => t.logs.length > 0);
    expect(t.logs[0]).toMatch(/no home channel for telegram/);
    expect(t.sent).toEqual([]);
  });

  it('words who answered', () => {
    expect(whoAnswered('telegram:Ann')).toBe('answered from telegram by Ann');
    expect(whoAnswered('client:x')).toBe('answered at a terminal');
    expect(whoAnswered('timeout')).toBe('no answer in time');
  });
});
