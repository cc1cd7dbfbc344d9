/**
 * Payloads of the local Discord (tests/support/fake-discord.ts) in the API's v10 shapes: ids,
 * users and members, the guild of GUILD_CREATE with its channels and threads, messages (the
 * bot's and users'), and interactions — as discord.js reads them.
 */

const DISCORD_EPOCH = 1420070400000n;
let counter = 0n;

/** A fresh snowflake (time-ordered, like Discord's). */
export function snowflake(): string {
  counter = (counter + 1n) & 0xfffn;
  return String(((BigInt(Date.now()) - DISCORD_EPOCH) << 22n) | (1n << 17n) | counter);
}

/** The bot's user. */
export const BOT_USER = {
  id: '900000000000000001',
  username: 'hermes',
  global_name: 'Hermes',
  discriminator: '0',
  bot: true,
  avatar: null,
};
/** The bot's application id. */
export const APP_ID = '900000000000000002';
/** The one guild, and its text channel `#general`. */
export const GUILD_ID = '800000000000000001';
export const GENERAL_ID = '800000000000000010';
/** Permissions given to everybody in the guild (all text permissions). */
const PERMISSIONS = '2248473465835073';

/** A user of the fake. */
export interface FakeUser {
  id: string;
  name: string;
}

/** A channel of the fake: a DM (1), a guild text channel (0) or a public thread (11). */
export interface FakeChannel {
  id: string;
  type: number;
  name?: string;
  parent_id?: string;
  guild_id?: string;
  recipients?: object[];
}

/** A message the bot sent (its current state and its edit history). */
export interface BotMessage {
  id: string;
  channel_id: string;
  content: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary fields
  components: any[];
  attachments: Array<{ filename: string; size: number; data: Buffer }>;
  reply_to?: string;
  nonce?: string;
  /** Times of the creation and of each edit, ms. */
  times: number[];
  edits: string[];
}

/** A user object. */
export function userObj(u: FakeUser) {
  return {
    id: u.id,
    username: u.name.toLowerCase(),
    global_name: u.name,
    discriminator: '0',
    avatar: null,
    bot: false,
  };
}

/** A guild member object (with its user, as interactions carry it). */
export function memberObj(u?: FakeUser) {
  return {
    ...(u ? { user: userObj(u) } : {}),
    roles: [],
    joined_at: new Date(0).toISOString(),
    deaf: false,
    mute: false,
    flags: 0,
    ...(u ? { permissions: PERMISSIONS } : {}),
  };
}

/** A public thread channel object. */
export function threadObj(c: FakeChannel) {
  return {
    ...c,
    type: 11,
    owner_id: '700000000000000001',
    member_count: 2,
    message_count: 0,
    thread_metadata: {
      archived: false,
      auto_archive_duration: 1440,
      archive_timestamp: new Date().toISOString(),
      locked: false,
    },
  };
}

/** The guild as GUILD_CREATE sends it: its text channels and active threads. */
export function guildCreate(channels: Iterable<FakeChannel>) {
  const all = [...channels];
  return {
    id: GUILD_ID,
    name: 'Test guild',
    icon: null,
    owner_id: '700000000000000001',
    unavailable: false,
    member_count: 3,
    large: false,
    features: [],
    joined_at: new Date(0).toISOString(),
    roles: [
      {
        id: GUILD_ID,
        name: '@everyone',
        permissions: PERMISSIONS,
        position: 0,
        color: 0,
        hoist: false,
        managed: false,
        mentionable: false,
        flags: 0,
      },
    ],
    emojis: [],
    stickers: [],
    members: [],
    presences: [],
    voice_states: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
    channels: all
      .filter((c) => c.guild_id && c.type === 0)
      .map((c) => ({ ...c, position: 0, permission_overwrites: [] })),
    threads: all.filter((c) => c.type === 11).map(threadObj),
  };
}

/** Fields every message object has. */
function messageBase(id: string, channel: FakeChannel | undefined, channelId: string) {
  return {
    id,
    channel_id: channelId,
    ...(channel ? { channel_type: channel.type } : {}),
    ...(channel?.guild_id ? { guild_id: channel.guild_id } : {}),
    edited_timestamp: null as string | null,
    tts: false,
    mention_everyone: false,
    mention_roles: [],
    embeds: [],
    pinned: false,
    flags: 0,
  };
}

/** A message of the bot as the API returns it. @param baseUrl where its attachments are served. */
export function botMessageObj(m: BotMessage, channel: FakeChannel | undefined, baseUrl: string) {
  return {
    ...messageBase(m.id, channel, m.channel_id),
    author: BOT_USER,
    content: m.content,
    timestamp: new Date(m.times[0]!).toISOString(),
    edited_timestamp: m.edits.length ? new Date(m.times.at(-1)!).toISOString() : null,
    mentions: [],
    attachments: m.attachments.map((a, i) => ({
      id: `${m.id}${i}`,
      filename: a.filename,
      size: a.size,
      url: `${baseUrl}/attachments/${m.id}/${a.filename}`,
      proxy_url: '',
    })),
    type: m.reply_to ? 19 : 0,
    components: m.components,
    ...(m.nonce ? { nonce: m.nonce } : {}),
  };
}

/** A user's message as MESSAGE_CREATE sends it. */
export function userMessageObj(p: {
  id: string;
  channel: FakeChannel;
  user: FakeUser;
  content: string;
  mentionBot: boolean;
  attachments: Array<{ name: string; size: number; url: string; type: string }>;
  /** The bot message this one replies to, as the API shows it. */
  replied?: { id: string } & object;
}) {
  const { id, channel: ch } = p;
  return {
    ...messageBase(id, ch, ch.id),
    ...(ch.guild_id ? { member: memberObj() } : {}),
    author: userObj(p.user),
    content: p.mentionBot ? `<@${BOT_USER.id}> ${p.content}` : p.content,
    timestamp: new Date().toISOString(),
    mentions: p.mentionBot ? [BOT_USER] : [],
    attachments: p.attachments.map((a, i) => ({
      id: `${id}${i}`,
      filename: a.name,
      size: a.size,
      url: a.url,
      proxy_url: a.url,
      content_type: a.type,
    })),
    type: p.replied ? 19 : 0,
    ...(p.replied
      ? {
          message_reference: {
            message_id: p.replied.id,
            channel_id: ch.id,
            ...(ch.guild_id ? { guild_id: ch.guild_id } : {}),
          },
          referenced_message: p.replied,
        }
      : {}),
  };
}

/** An interaction as INTERACTION_CREATE sends it (type 2: command, 3: component). */
export function interactionObj(p: {
  id: string;
  token: string;
  type: number;
  data: object;
  channel: FakeChannel;
  user: FakeUser;
  /** The bot message a component belongs to, as the API shows it. */
  message?: object;
}) {
  const ch = p.channel;
  return {
    id: p.id,
    application_id: APP_ID,
    type: p.type,
    token: p.token,
    version: 1,
    data: p.data,
    channel_id: ch.id,
    channel: {
      id: ch.id,
      type: ch.type,
      ...(ch.name ? { name: ch.name } : {}),
      ...(ch.parent_id ? { parent_id: ch.parent_id } : {}),
      ...(ch.recipients ? { recipients: ch.recipients } : {}),
    },
    ...(ch.guild_id
      ? { guild_id: ch.guild_id, member: memberObj(p.user), guild_locale: 'en-US' }
      : { user: userObj(p.user) }),
    ...(p.message ? { message: p.message } : {}),
    locale: 'en-US',
    app_permissions: PERMISSIONS,
    entitlements: [],
    authorizing_integration_owners: {},
    context: ch.guild_id ? 0 : 1,
  };
}
