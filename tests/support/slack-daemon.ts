/**
 * Set-up of the Slack end-to-end tests (platform-slack*.test.ts): the scripted model, the Slack
 * stand-in (fake-slack.ts) and a daemon whose `platforms.slack` points at it, with users U1–U4
 * (Ann, Bob, Cid, Dee) allowed. Run `npm run build` first.
 */
import { makeTestHome } from './hermes-cli.js';
import { startFakeModelServer, type FakeModelServer, type ScriptStep } from './fake-model-server.js';
import { startFakeSlack, type FakeSlack, type SlackBotMessage } from './fake-slack.js';
import { startDaemonWithPlatform, stopDaemon } from './platform-daemon.js';

/** What a Slack end-to-end test works with. */
export interface SlackWorld {
  model: FakeModelServer;
  slack: FakeSlack;
  root: string;
  /** The bot's messages in `channel` (optionally in one thread), in the order posted. */
  botMessages(channel: string, threadTs?: string): SlackBotMessage[];
  stop(): Promise<void>;
}

/** The users of the tests (all allowed). */
export const SLACK_USERS: Record<string, string> = { U1: 'Ann', U2: 'Bob', U3: 'Cid', U4: 'Dee' };

/**
 * Starts model, stand-in and daemon.
 * @param slackLines extra lines under `platforms.slack`.
 * @param whenEmpty the model's answer when its script is empty.
 */
export async function startSlackWorld(
  slackLines: readonly string[] = [],
  whenEmpty: ScriptStep = { echo: 'last_user', prefix: 'echo: ' },
): Promise<SlackWorld> {
  const model = await startFakeModelServer({ whenEmpty });
  const slack = await startFakeSlack();
  for (const [id, name] of Object.entries(SLACK_USERS)) slack.addUser(id, name);
  const root = makeTestHome({
    modelUrl: model.url,
    env: `SLACK_BOT_TOKEN=${slack.botToken}\nSLACK_APP_TOKEN=${slack.appToken}\n`,
    config: [
      '  vision: true', // continues the test home's `model:` section
      'platforms:',
      '  slack:',
      '    enabled: true',
      `    api_base: ${slack.url}`,
      `    allowed_users: [${Object.keys(SLACK_USERS).join(', ')}]`,
      '    reset: { mode: none }',
      ...slackLines.map((l) => `    ${l}`),
      'gateway:',
      '  drain_timeout: 2',
      // approvals of commands on files outside a workspace: on the bare host here
      'terminal:',
      '  sandbox: { platforms: off }',
    ].join('\n'),
  });
  await startDaemonWithPlatform(root, 'slack');
  return {
    model,
    slack,
    root,
    botMessages: (channel, threadTs) =>
      [...slack.messages.values()].filter(
        (m) => m.channel === channel && (threadTs === undefined || m.thread_ts === threadTs),
      ),
    stop: async () => {
      await stopDaemon(root);
      await slack.close();
      await model.close();
    },
  };
}
