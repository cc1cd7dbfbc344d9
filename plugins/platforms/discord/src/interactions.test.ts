/**
 * The interaction handlers with stand-in interactions (the calls a discord.js interaction
 * receives are recorded); the adapter tests run them against the Discord stand-in too.
 */
import type { ButtonOutcome, InboundReceipt } from '@hermes/core';
import type { ButtonInteraction, ChatInputCommandInteraction } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { ButtonTable } from './components.js';
import { handleButton, handleCommand, interactionChannel, type InteractionHost } from './interactions.js';

interface Recorded {
  calls: Array<[string, unknown]>;
}

function stub(extra: Record<string, unknown>): Recorded & Record<string, unknown> {
  const calls: Array<[string, unknown]> = [];
  const rec = (name: string) => async (arg?: unknown) => void calls.push([name, arg]);
  return {
    calls,
    id: 'i1',
    channel: null,
    channelId: 'dm1',
    guildId: null,
    inGuild: () => false,
    member: null,
    user: { id: 'u1', globalName: 'Ann', username: 'ann' },
    message: { content: 'Approval needed to run: ls' },
    reply: rec('reply'),
    update: rec('update'),
    deferReply: rec('deferReply'),
    editReply: rec('editReply'),
    ...extra,
  };
}

function host(outcome?: ButtonOutcome, receipt?: InboundReceipt) {
  const pressed: unknown[] = [];
  const messages: unknown[] = [];
  const h: InteractionHost = {
    buttons: new ButtonTable(),
    allowedPlace: () => true,
    press: async (p) => (pressed.push(p), outcome),
    message: async (m) => (messages.push(m), receipt ?? { kind: 'accepted', id: 'in-1', durable: true }),
  };
  return { h, pressed, messages };
}

describe('interaction handlers', () => {
  it('an uncached DM channel is a DM', () => {
    const c = interactionChannel(stub({}) as unknown as ButtonInteraction);
    expect([c.id, c.isDMBased(), c.isThread()]).toEqual(['dm1', true, false]);
  });

  it('answered: the prompt is updated with who answered and loses its buttons', async () => {
    const { h, pressed } = host({ kind: 'answered' });
    const token = h.buttons.add({ kind: 'a', requestId: 'r1', values: ['once', 'deny'] });
    const i = stub({ customId: `hermes:a:${token}:1` });
    await handleButton(i as unknown as ButtonInteraction, h);
    expect(pressed).toMatchObject([
      { requestId: 'r1', value: 'deny', source: { chatType: 'dm', userId: 'u1' } },
    ]);
    expect(i.calls).toEqual([
      ['update', { content: 'Approval needed to run: ls\n\n**Deny** — answered by Ann', components: [] }],
    ]);
    expect(h.buttons.resolve({ kind: 'a', token, index: 0 })).toBeUndefined();
  });

  it('refused: only the presser is told, and the prompt stays open', async () => {
    const { h } = host({ kind: 'refused', reason: 'You may not answer this question.' });
    const token = h.buttons.add({ kind: 'a', requestId: 'r1', values: ['once'] });
    const i = stub({ customId: `hermes:a:${token}:0` });
    await handleButton(i as unknown as ButtonInteraction, h);
    expect(i.calls).toEqual([['reply', { content: 'You may not answer this question.', flags: 64 }]]);
    expect(h.buttons.resolve({ kind: 'a', token, index: 0 })).toBeDefined();
  });

  it('an unknown prompt or a closed question: an ephemeral "closed"; foreign buttons: nothing', async () => {
    const { h, pressed } = host({ kind: 'closed' });
    const unknown = stub({ customId: 'hermes:a:zz:0' });
    await handleButton(unknown as unknown as ButtonInteraction, h);
    expect(unknown.calls).toEqual([['reply', { content: 'This question is closed.', flags: 64 }]]);
    const foreign = stub({ customId: 'another-bot:1' });
    await handleButton(foreign as unknown as ButtonInteraction, h);
    expect(foreign.calls).toEqual([]);
    expect(pressed).toEqual([]);
  });

  it('a slash command: deferred, its text handed on, the reply shows the command or why not', async () => {
    const { h, messages } = host(undefined, { kind: 'refused', id: 'in-2', reason: 'access denied' });
    const i = stub({
      commandName: 'model',
      options: { getString: (n: string) => (n === 'id' ? 'gpt-5' : null) },
    });
    await handleCommand(i as unknown as ChatInputCommandInteraction, h);
    expect(messages).toMatchObject([
      { text: '/model gpt-5', dedupeKey: 'interaction:i1', source: { chatType: 'dm' } },
    ]);
    expect(i.calls).toEqual([
      ['deferReply', undefined],
      ['editReply', { content: '`/model gpt-5` — not accepted (access denied)' }],
    ]);
    const other = stub({ commandName: 'rm', options: { getString: () => null } });
    await handleCommand(other as unknown as ChatInputCommandInteraction, h);
    expect(other.calls).toEqual([['reply', { content: 'That command is not available here.', flags: 64 }]]);
  });
});
