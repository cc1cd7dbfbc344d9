/** Name lookups against the Slack stand-in (tests/support/fake-slack.ts). */
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSlack, type FakeSlack } from '../../../../tests/support/fake-slack.js';
import { SlackDirectory } from './directory.js';

let slack: FakeSlack;
let dir: SlackDirectory;

beforeAll(async () => {
  slack = await startFakeSlack();
  slack.addUser('U1', 'Ann');
  const web = new webApi.WebClient(slack.botToken, { slackApiUrl: slack.url, retryConfig: { retries: 0 } });
  dir = new SlackDirectory(() => web);
});
afterAll(() => slack.close());

describe('SlackDirectory', () => {
  it('names users and conversations, asking Slack once per id', async () => {
    expect(await dir.userName('U1')).toBe('Ann');
    expect(await dir.userName('U1')).toBe('Ann');
    expect(slack.calls.filter((c) => c.method === 'users.info')).toHaveLength(1);
    expect(await dir.chatInfo('C1')).toEqual({
      name: 'chan-c1',
      type: 'channel',
      topic: 'where the team talks',
    });
    expect(await dir.chatInfo('D1')).toEqual({ name: 'direct message', type: 'dm' });
    await dir.chatInfo('C1');
    expect(slack.calls.filter((c) => c.method === 'conversations.info')).toHaveLength(2);
  });

  it('an unknown user is undefined and asked again next time', async () => {
    expect(await dir.userName('U9')).toBeUndefined();
    slack.addUser('U9', 'Nine');
    expect(await dir.userName('U9')).toBe('Nine');
  });
});
