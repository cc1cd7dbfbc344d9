/**
 * Handoff: one session, two surfaces. `/handoff telegram` (any connected platform) makes the
 * owner's chat — the platform's home channel — a surface of the session: the chat gets a short
 * summary, then a message from either surface is a prompt of the same session (one queue), and
 * replies go to both. `/handoff tui` ends it: the chat goes back to its own conversation.
 *
 * How, without a second path:
 * - The chat's session key (the messaging layer's routing index) is pointed at the session, so
 *   the platform's own pipeline submits the chat's messages into it and delivers their replies
 *   (edit-streamed, ledger and all). The key it named before is restored at `/handoff tui`.
 * - Replies to prompts from anywhere else (a TUI, a heartbeat) are sent to the chat once, as
 *   final messages, at their turn's end; a turn the chat started is left to the pipeline. TUIs
 *   attached to the session see every turn live, the chat's included. Nothing is sent twice.
 * - The owner's chat is a direct chat whose id is the owner's user id (Telegram's private
 *   chats); a handoff lasts while the daemon runs.
 */
import {
  splitMessage,
  type ChatSessionIndex,
  type MessagePipeline,
  type MessageSource,
  type PlatformAdapter,
} from '@hermes/core/messaging';
import type { HermesConfig, Secrets } from '@hermes/core/config';
import type { WireEvent } from '@hermes/core/protocol';
import type { HandlerRegistry } from '../rpc/types.js';
import { withSlashRunner } from '../rpc/slash-runner.js';
import type { LiveSession } from '../sessions/live-session.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import { homeChannel } from './escalation.js';

/** What a handoff needs of the daemon. */
export interface HandoffDeps {
  /** A connected platform of a profile (AdapterHost.chatRoute). */
  route(
    profile: string,
    platform: string,
  ): { adapter: PlatformAdapter; keyOf: MessagePipeline['keyOf']; store: ChatSessionIndex } | undefined;
  registry: () => SessionRegistry | undefined;
  profile(name: string): { config: HermesConfig; secrets: Secrets };
  log: (line: string) => void;
}

interface Active {
  live: LiveSession;
  platform: string;
  chatId: string;
  key: string;
  store: ChatSessionIndex;
  adapter: PlatformAdapter;
  previous: string | undefined;
  /** Prompt ids of turns to mirror to the chat → the turn's last complete reply. */
  mirrored: Map<string, string>;
  current?: string;
}

/** Most characters of the last reply in the handoff's summary. */
export const HANDOFF_SUMMARY_CHARS = 600;

/** The handoffs of one daemon. */
export class Handoffs {
  private readonly active = new Map<LiveSession, Active>();

  constructor(private readonly deps: HandoffDeps) {}

  /**
   * `/handoff PLATFORM` of session `sessionId`: the owner's chat on it becomes a surface of the
   * session. @returns the line to show the user (also when it cannot).
   */
  async start(profile: string, sessionId: string, platform: string): Promise<string> {
    const registry = this.deps.registry();
    if (!registry) return 'The daemon is starting; try again.';
    const live = registry.get(profile, sessionId);
    const route = this.deps.route(profile, platform);
    if (!route) return `${platform} is not connected in profile ${profile} (hermes gateway status).`;
    const chatId = await homeChannel(this.deps.profile(profile), platform);
    if (!chatId) return `${platform} has no home channel (platforms.${platform}.home_channel).`;
    const had = this.active.get(live);
    if (had) this.end(had);
    const source: MessageSource = { platform, chatType: 'dm', chatId, userId: chatId };
    const key = route.keyOf(source);
    const previous = route.store.point(key, live.id, source);
    const a: Active = {
      live,
      platform,
      chatId,
      key,
      store: route.store,
      adapter: route.adapter,
      previous: previous === live.id ? undefined : previous,
      mirrored: new Map(),
    };
    this.active.set(live, a);
    const info = live.info();
    const last = registry
      .profile(profile)
      .db.getMessages(live.id, { limit: 50 })
      .filter((m) => m.role === 'assistant' && m.content)
      .at(-1)?.content;
    const summary = [
      `Continuing "${info.title ?? live.id}" here (handed off from the terminal, profile ${profile}).`,
      ...(last
        ? [
            `Last reply:\n${last.length > HANDOFF_SUMMARY_CHARS ? `${last.slice(0, HANDOFF_SUMMARY_CHARS)}…` : last}`,
          ]
        : []),
      'Write here to go on; /handoff tui in a terminal brings it back.',
    ].join('\n\n');
    await this.send(a, summary);
    this.deps.log(`handoff: session ${live.id} (profile ${profile}) continues in ${platform}`);
    return `Handed off to ${platform}: the owner's chat continues this session; replies go to both. /handoff tui brings it back.`;
  }

  /** `/handoff tui`: ends the session's handoff. @returns the line to show. */
  async stop(profile: string, sessionId: string): Promise<string> {
    const live = this.deps.registry()?.peek(profile, sessionId);
    const a = live ? this.active.get(live) : undefined;
    if (!a) return 'This session is not handed off.';
    this.end(a);
    await this.send(a, 'Back in the terminal: this chat is its own conversation again.');
    return `Back here: ${a.platform} no longer continues this session.`;
  }

  private end(a: Active): void {
    this.active.delete(a.live);
    if (a.previous)
      a.store.point(a.key, a.previous, {
        platform: a.platform,
        chatType: 'dm',
        chatId: a.chatId,
        userId: a.chatId,
      });
    else a.store.forget(a.key);
    this.deps.log(`handoff: session ${a.live.id} back from ${a.platform}`);
  }

  /** Every event of a live session: replies of turns the chat did not start go to the chat. */
  observe(live: LiveSession, ev: WireEvent | undefined): void {
    const a = ev ? this.active.get(live) : undefined;
    if (!a || !ev) return;
    if (ev.type === 'turn.start') {
      a.current = ev.payload.prompt_id;
      // the chat's own turns are the pipeline's to deliver
      if (!(ev.payload.by ?? '').startsWith('platform:')) a.mirrored.set(ev.payload.prompt_id, '');
    } else if (ev.type === 'message.complete' && a.current && a.mirrored.has(a.current)) {
      if (ev.payload.text) a.mirrored.set(a.current, ev.payload.text);
    } else if (ev.type === 'turn.end') {
      const text = a.mirrored.get(ev.payload.prompt_id);
      a.mirrored.delete(ev.payload.prompt_id);
      a.current = undefined;
      if (text === undefined) return;
      const out = text || (ev.payload.status === 'complete' ? '' : `(the turn ended: ${ev.payload.status})`);
      if (out) void this.send(a, out);
    }
  }

  /** Whether a session is handed off (to which platform). */
  handedOff(live: LiveSession): string | undefined {
    return this.active.get(live)?.platform;
  }

  private async send(a: Active, text: string): Promise<void> {
    for (const chunk of splitMessage(text, a.adapter.maxMessageLength || 4000)) {
      const r = await a.adapter
        .send(a.chatId, chunk)
        .catch((err: Error) => ({ ok: false, error: err.message }));
      if (!r.ok) this.deps.log(`handoff: sending to ${a.platform} failed: ${r.error ?? 'unknown'}`);
    }
  }
}

/** `/handoff PLATFORM` / `/handoff tui` of `slash.exec`, the rest on to `rpc`'s handler. */
export function withHandoffSlash(rpc: HandlerRegistry, handoffs: Handoffs): HandlerRegistry {
  return withSlashRunner(rpc, 'handoff', async (args, p, conn) => {
    const target = args.trim().toLowerCase();
    if (!target) return { output: 'Usage: /handoff PLATFORM (e.g. telegram) or /handoff tui', handled: true };
    try {
      const output =
        target === 'tui' || target === 'terminal'
          ? await handoffs.stop(conn.profile, p.session_id)
          : await handoffs.start(conn.profile, p.session_id, target);
      return { output, handled: true };
    } catch (err) {
      return { output: `handoff: ${(err as Error).message}`, handled: true };
    }
  });
}
