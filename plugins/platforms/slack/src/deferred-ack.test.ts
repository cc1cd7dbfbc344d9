import { App, SocketModeReceiver } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { boltLogger, deferEventAcks } from './connection.js';

/** A receiver and app wired like the adapter's, never connected: envelopes are emitted by hand. */
function wired(onMessage: () => Promise<void>) {
  const logger = boltLogger(() => undefined);
  const receiver = new SocketModeReceiver({ appToken: 'xapp-1-test', logger });
  const app = new App({
    token: 'xoxb-test',
    receiver,
    botUserId: 'UBOT',
    botId: 'BBOT',
    tokenVerificationEnabled: false,
    logger,
  });
  app.event('message', async () => onMessage());
  app.command('/hermes', async ({ ack }) => ack());
  deferEventAcks(receiver.client);
  return receiver;
}

const messageEnvelope = (acks: string[]) => ({
  type: 'events_api',
  envelope_id: 'env-1',
  ack: async () => void acks.push('env-1'),
  body: {
    type: 'event_callback',
    team_id: 'T1',
    event_id: 'Ev1',
    event: { type: 'message', channel: 'D1', user: 'U1', text: 'hi', ts: '1.000001', channel_type: 'im' },
  },
  retry_num: 0,
  accepts_response_payload: false,
});

async function until(cond: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 5_000;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('deferEventAcks', () => {
  it('acknowledges an Events API envelope only after its listener finished', async () => {
    let release!: () => void;
    let started = false;
    const receiver = wired(() => {
      started = true;
      return new Promise<void>((r) => (release = r));
    });
    const acks: string[] = [];
    receiver.client.emit('slack_event', messageEnvelope(acks));
    await until(() => started, 'the listener');
    await new Promise((r) => setTimeout(r, 50));
    expect(acks).toEqual([]); // Bolt's own early ack was held back
    release();
    await until(() => acks.length > 0, 'the ack');
    expect(acks).toEqual(['env-1']);
  });

  it('still acknowledges when the listener fails', async () => {
    const receiver = wired(async () => {
      throw new Error('boom');
    });
    const acks: string[] = [];
    receiver.client.emit('slack_event', messageEnvelope(acks));
    await until(() => acks.length > 0, 'the ack');
    expect(acks).toEqual(['env-1']);
  });

  it('leaves slash-command envelopes to their listener', async () => {
    const receiver = wired(async () => undefined);
    const acks: unknown[] = [];
    receiver.client.emit('slack_event', {
      type: 'slash_commands',
      envelope_id: 'env-2',
      ack: async (response?: unknown) => void acks.push(response ?? 'acked'),
      body: {
        command: '/hermes',
        text: 'hi',
        user_id: 'U1',
        channel_id: 'D1',
        team_id: 'T1',
        trigger_id: 'tr1',
        response_url: 'http://127.0.0.1:1/r',
      },
      accepts_response_payload: true,
    });
    await until(() => acks.length > 0, 'the ack');
    expect(acks).toHaveLength(1);
  });
});
