/**
 * Session keys: the single source of truth for "whose conversation is this".
 *
 * Layout: `<ns>:<platform>:<chat_type>[:<chat_id>][…]` where `<ns>` is `agent:main` for the
 * default profile (byte-identical to historical keys) and `agent:<profile>` for a named one.
 *
 * | situation                 | isolated per user?                         |
 * |---------------------------|--------------------------------------------|
 * | direct message            | by chat id (a DM is one conversation)      |
 * | group / channel           | yes by default (`groupSessionsPerUser`)    |
 * | thread                    | no by default (`threadSessionsPerUser`)    |
 * | DM without a chat id      | by the sender's id, never merged with others |
 * | nothing identifies it     | `<ns>:<platform>:dm`, one fallback session |
 */
import { DEFAULT_PROFILE } from '../home/profile-name.js';
import type { MessageSource } from './source.js';

/** Options of `buildSessionKey`. */
export interface SessionKeyOptions {
  /** Groups and channels (outside threads) get one session per participant. Default true. */
  groupSessionsPerUser?: boolean;
  /** Threads get one session per participant. Default false: a thread is one shared discussion. */
  threadSessionsPerUser?: boolean;
  /** Profile serving the message; `default` / undefined keep the historical `agent:main` namespace. */
  profile?: string;
}

/**
 * The `agent:<ns>` prefix of a key: `agent:main` for the default profile, else
 * `agent:<profile>`. A profile literally named `main` gets `agent:main~` (`~` is outside the
 * profile-id alphabet) so it can never share the default profile's keys.
 */
export function sessionKeyNamespace(profile?: string): string {
  if (!profile || profile === DEFAULT_PROFILE) return 'agent:main';
  return profile === 'main' ? 'agent:main~' : `agent:${profile}`;
}

/** Inverse of `sessionKeyNamespace` for the second segment of a key: `main` → `default`, `main~` → `main`. */
export function profileFromNamespace(segment: string): string {
  if (segment === 'main') return DEFAULT_PROFILE;
  return segment === 'main~' ? 'main' : segment;
}

/** The participant id used for isolation: the alternative id when the platform gives one. */
function participant(source: MessageSource): string | undefined {
  return source.userIdAlt || source.userId || undefined;
}

/**
 * Builds the deterministic session key of a message source.
 *
 * - DM: `<ns>:<platform>:dm:<chat_id>[:<thread_id>]`; without a chat id the sender's id takes its
 *   place (`…:dm:<user_id>`), so chat-id-less DMs of different people never share a session;
 *   with neither, the single fallback `<ns>:<platform>:dm`.
 * - Group/channel: `<ns>:<platform>:<type>:<chat_id>[:<thread_id>][:<user_id>]`, the user part
 *   present when isolation applies (groups: `groupSessionsPerUser`, default true; inside a
 *   thread: `threadSessionsPerUser`, default false).
 *
 * @param source where the message came from (raw ids; hashing never applies to routing).
 * @returns a colon-separated key, e.g. `agent:main:telegram:dm:12345`.
 */
export function buildSessionKey(source: MessageSource, options: SessionKeyOptions = {}): string {
  const groupPerUser = options.groupSessionsPerUser ?? true;
  const threadPerUser = options.threadSessionsPerUser ?? false;
  const isDm = source.chatType === 'dm';
  const chatId = source.chatId || undefined;
  const threadId = source.threadId || undefined;
  const isolateUser = isDm ? !chatId : groupPerUser && !(threadId && !threadPerUser);
  const user = isolateUser ? participant(source) : undefined;

  const parts: string[] = [sessionKeyNamespace(options.profile), source.platform, source.chatType];
  if (chatId) parts.push(chatId);
  const userPart = user ? [user] : [];
  const threadPart = threadId ? [threadId] : [];
  // DMs put the participant before the thread; groups and threads put it after.
  parts.push(...(isDm ? [...userPart, ...threadPart] : [...threadPart, ...userPart]));
  return parts.join(':');
}

/**
 * True when a non-DM session is shared by several participants: the read-only mirror of the
 * isolation rules of `buildSessionKey`. In such sessions the sender's name is prefixed to each
 * user message instead of being written into the system prompt.
 */
export function isSharedMultiUserSession(source: MessageSource, options: SessionKeyOptions = {}): boolean {
  if (source.chatType === 'dm') return false;
  const groupPerUser = options.groupSessionsPerUser ?? true;
  const threadPerUser = options.threadSessionsPerUser ?? false;
  return !(source.threadId ? threadPerUser : groupPerUser);
}
