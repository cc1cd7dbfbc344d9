/**
 * A local Discord for tests (`node:http` + `ws`, 127.0.0.1, free port): the REST API discord.js
 * calls, with every call recorded, and the attachment downloads (fake-discord-rest.ts); and the
 * gateway (fake-discord-gateway.ts). A test plays users: DMs, guild and thread messages (with
 * mentions, replies, attachments), button presses and slash commands, all dispatched over the
 * gateway with sequence numbers.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeGateway } from './fake-discord-gateway.js';
import {
  APP_ID,
  BOT_USER,
  GENERAL_ID,
  GUILD_ID,
  botMessageObj,
  guildCreate,
  interactionObj,
  snowflake,
  threadObj,
  userMessageObj,
  userObj,
  type BotMessage,
  type FakeChannel,
  type FakeUser,
} from './fake-discord-payloads.js';
import {
  discordRest,
  restFailure,
  type DiscordState,
  type PendingInteraction,
  type RestCall,
} from './fake-discord-rest.js';

export type { BotMessage, FakeUser } from './fake-discord-payloads.js';
export type { InteractionAnswer, RestCall } from './fake-discord-rest.js';

/** Options of the fake. */
export interface FakeDiscordOptions {
  token?: string;
  heartbeatIntervalMs?: number;
}

/** A running fake Discord. */
export type FakeDiscord = Awaited<ReturnType<typeof startFakeDiscord>>;

/** Starts the fake on a free loopback port. */
export async function startFakeDiscord(opts: FakeDiscordOptions = {}) {
  const token = opts.token ?? 'MTIzNDU2Nzg5MDEyMzQ1Njc4.GtEsT1.fake-discord-token-abcdefghijklmnop';
  const calls: RestCall[] = [];
  const messages = new Map<string, BotMessage>();
  const waiters = new Set<() => void>();
  const bot = BOT_USER;
  const appId = APP_ID;
  const guildId = GUILD_ID;
  const channels = new Map<string, FakeChannel>();
  channels.set(GENERAL_ID, { id: GENERAL_ID, type: 0, name: 'general', guild_id: guildId });
  const interactions = new Map<string, PendingInteraction>();
  let port = 0;
  const gateway = { current: undefined as FakeGateway | undefined };
  const messageObj = (m: BotMessage) =>
    botMessageObj(m, channels.get(m.channel_id), `http://127.0.0.1:${port}`);
  const state: DiscordState = {
    token,
    bot,
    appId,
    calls,
    messages,
    answers: [],
    cdn: new Map(),
    downloads: [],
    channels,
    nonces: new Map(),
    userMessages: [],
    interactions,
    port: () => port,
    gateway: () => gateway.current,
    wake: () => {
      for (const w of [...waiters]) w();
    },
    messageObj,
  };

  const handle = discordRest(state);
  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => restFailure(res, err));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  const gw = new FakeGateway({
    server,
    path: '/gateway',
    url: () => `ws://127.0.0.1:${port}/gateway`,
    token,
    heartbeatIntervalMs: opts.heartbeatIntervalMs ?? 5_000,
    ready: () => ({
      user: bot,
      application: { id: appId, flags: 0 },
      guilds: [guildCreate(channels.values())],
    }),
  });
  gateway.current = gw;

  /** Puts bytes on the CDN stand-in; returns their URL. */
  function upload(name: string, data: Buffer, type: string): string {
    const p = `/attachments/${snowflake()}/${encodeURIComponent(name)}`;
    state.cdn.set(p, { data, type });
    return `http://127.0.0.1:${port}${p}`;
  }

  /** The DM channel of a user (created on first use). */
  function dmChannel(u: FakeUser): string {
    const id = `6${u.id.slice(1)}`;
    if (!channels.has(id)) channels.set(id, { id, type: 1, recipients: [userObj(u)] });
    return id;
  }

  function channelPayload(channelId: string) {
    const ch = channels.get(channelId);
    if (!ch) throw new Error(`no channel ${channelId} in the fake`);
    return ch;
  }

  return {
    /** For `api_base`: `http://127.0.0.1:<port>/api`. */
    url: `http://127.0.0.1:${port}/api`,
    /** The gateway's URL (also what `GET /gateway/bot` names). */
    gatewayUrl: `ws://127.0.0.1:${port}/gateway`,
    token,
    bot,
    appId,
    guildId,
    /** The guild's text channel `#general`. */
    generalId: GENERAL_ID,
    calls,
    /** Paths of attachment downloads (`/attachments/…`) the bot made, in order. */
    downloads: state.downloads,
    messages,
    answers: state.answers,
    gateway: gw,
    /** Adds a public thread under `#general` (before the bot connects: it is in GUILD_CREATE). */
    addThread(name: string): string {
      const id = snowflake();
      channels.set(id, { id, type: 11, name, parent_id: GENERAL_ID, guild_id: guildId });
      gw.dispatch('THREAD_CREATE', { ...threadObj(channels.get(id)!), newly_created: true });
      return id;
    },
    /** A DM channel id of `user`. */
    dmChannel,
    /** Puts bytes on the CDN stand-in; returns their URL. */
    upload,
    /**
     * A user's message, dispatched as MESSAGE_CREATE (in a DM when `channelId` is absent).
     * @returns the message id.
     */
    userMessage(m: {
      user: FakeUser;
      content: string;
      channelId?: string;
      mentionBot?: boolean;
      replyTo?: string;
      attachments?: Array<{ name: string; data: Buffer; type: string }>;
    }): string {
      const channelId = m.channelId ?? dmChannel(m.user);
      const ch = channelPayload(channelId);
      const id = snowflake();
      const replied = m.replyTo ? messages.get(m.replyTo) : undefined;
      const payload = userMessageObj({
        id,
        channel: ch,
        user: m.user,
        content: m.content,
        mentionBot: m.mentionBot ?? false,
        attachments: (m.attachments ?? []).map((a) => ({
          name: a.name,
          size: a.data.length,
          type: a.type,
          url: upload(a.name, a.data, a.type),
        })),
        ...(replied ? { replied: messageObj(replied) } : {}),
      });
      state.userMessages.push(payload);
      gw.dispatch('MESSAGE_CREATE', payload);
      return id;
    },
    /** A press of a button (`customId`) on the bot's message `messageId`, dispatched as INTERACTION_CREATE. */
    pressButton(p: { user: FakeUser; messageId: string; customId: string }): string {
      const msg = messages.get(p.messageId);
      if (!msg) throw new Error(`no bot message ${p.messageId}`);
      return interaction(p.user, msg.channel_id, 3, { custom_id: p.customId, component_type: 2 }, msg.id);
    },
    /** A slash command, dispatched as INTERACTION_CREATE (type 2) in a DM unless `channelId` is given. */
    slashCommand(c: {
      user: FakeUser;
      name: string;
      options?: Record<string, string>;
      channelId?: string;
    }): string {
      const channelId = c.channelId ?? dmChannel(c.user);
      return interaction(c.user, channelId, 2, {
        id: snowflake(),
        name: c.name,
        type: 1,
        ...(c.options
          ? { options: Object.entries(c.options).map(([name, value]) => ({ name, type: 3, value })) }
          : {}),
      });
    },
    /** Revokes the bot token (as a reset in the developer portal does): REST 401, gateway 4004. */
    revokeToken(): void {
      gw.revoked = true;
      gw.drop(4004);
    },
    /** Resolves with the first REST call (past or future) matching `pred`. */
    async waitForCall(pred: (c: RestCall) => boolean, what: string, timeoutMs = 20_000): Promise<RestCall> {
      return waitUntil(() => calls.find(pred), what, timeoutMs);
    },
    /** Resolves with the first truthy value of `probe`, checked on every REST call. */
    waitUntil,
    async close(): Promise<void> {
      gw.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };

  function interaction(
    u: FakeUser,
    channelId: string,
    type: number,
    data: object,
    messageId?: string,
  ): string {
    const ch = channelPayload(channelId);
    const id = snowflake();
    const itoken = `itoken-${id}`;
    interactions.set(id, {
      id,
      token: itoken,
      channelId,
      ...(messageId ? { messageId } : {}),
      answered: false,
    });
    gw.dispatch(
      'INTERACTION_CREATE',
      interactionObj({
        id,
        token: itoken,
        type,
        data,
        channel: ch,
        user: u,
        ...(messageId ? { message: messageObj(messages.get(messageId)!) } : {}),
      }),
    );
    return id;
  }

  async function waitUntil<T>(
    probe: () => T | undefined | false,
    what: string,
    timeoutMs = 20_000,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = probe();
      if (v) return v;
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${what}; calls: ${calls
            .map((c) => `${c.method} ${c.path}`)
            .slice(-15)
            .join(', ')}`,
        );
      await new Promise<void>((r) => {
        const t = setTimeout(done, 100);
        function done(): void {
          clearTimeout(t);
          waiters.delete(done);
          r();
        }
        waiters.add(done);
      });
    }
  }
}
