/**
 * Approvals that escalate when nobody is at the terminal: an approval still open
 * `approvals.escalate_after` seconds after it was shown is also sent to the owner's home channel
 * on the platform named by `approvals.escalate_to` (its `home_channel`, else the platform's cron
 * home-channel variable, e.g. `TELEGRAM_HOME_CHANNEL`), with two buttons: `once` and `deny`.
 *
 * Rules:
 * - One request, one answer: the press goes into the session's own open request
 *   (`LiveSession.answer`, first answer wins); nothing here decides for the guard. An answer from
 *   anywhere else settles it the same way, and the escalated message is then edited to say what
 *   was answered and by whom.
 * - From the chat only `once` and `deny`: a press of `session` or `always` (a forged button) is
 *   refused and the request stays open. Only a press in the home channel itself counts, by a user
 *   the platform admits and lets answer approvals (allow-lists, pairing, `admins`): in a home
 *   channel that is a group, a stranger's press approves nothing.
 * - The answer is named `<platform>:<user name>` (the TUI shows "answered from telegram by Ann").
 * - A platform that is not connected, or no home channel, is logged; the request waits as before.
 * - Cron and platform sessions are live sessions too: the same path.
 */
import type { HermesConfig, Secrets } from '@hermes/core/config';
import { lookupSecret } from '@hermes/core/config';
import {
  getLiveAdapter,
  platformConfigOf,
  platformRegistry,
  type ButtonOutcome,
  type ButtonPress,
  type PlatformAdapter,
} from '@hermes/core/messaging';
import type { OpenRequest, WireEvent } from '@hermes/core/protocol';
import type { LiveSession } from '../sessions/live-session.js';

/** The choices offered in the chat. */
export const ESCALATED_CHOICES = ['once', 'deny'] as const;

/** What escalation needs of the daemon. */
export interface EscalationDeps {
  /** The profile's current config and secrets. */
  profile(name: string): { config: HermesConfig; secrets: Secrets };
  /** The connected adapter of a platform in a profile (default: the messaging layer's). */
  adapter?: (profile: string, platform: string) => PlatformAdapter | undefined;
  /** Told when a request was escalated (the status feed). */
  escalated?: (live: LiveSession, requestId: string, platform: string) => void;
  log: (line: string) => void;
}

interface Pending {
  live: LiveSession;
  open: OpenRequest;
  timer?: NodeJS.Timeout;
  sent?: { platform: string; chatId: string; messageId?: string; adapter: PlatformAdapter; text: string };
}

/** The escalations of one daemon. */
export class Escalations {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly deps: EscalationDeps) {}

  /** A request was shown in a live session: an approval arms its escalation timer. */
  shown(live: LiveSession, open: OpenRequest): void {
    if (open.kind !== 'approval') return;
    let config: HermesConfig;
    try {
      config = this.deps.profile(live.profile).config;
    } catch {
      return;
    }
    const { escalate_after: after, escalate_to: to } = config.approvals;
    if (!to || !(after > 0)) return;
    const p: Pending = { live, open };
    p.timer = setTimeout(() => void this.escalate(p, to), after * 1000);
    p.timer.unref();
    this.pending.set(open.request_id, p);
  }

  /** Every event of a live session: a resolved request ends its escalation. */
  observe(live: LiveSession, ev: WireEvent | undefined): void {
    if (ev?.type !== 'request.resolved') return;
    const p = this.pending.get(ev.payload.request_id);
    if (!p || p.live !== live) return;
    this.pending.delete(ev.payload.request_id);
    clearTimeout(p.timer);
    if (!p.sent?.messageId) return;
    const choice = typeof ev.payload.choice === 'string' ? ev.payload.choice : 'deny';
    const text = `${p.sent.text}\n\n${choice === 'deny' ? '✗ Denied' : `✓ Approved (${choice})`} — ${whoAnswered(ev.payload.by)}`;
    void p.sent.adapter
      .editMessage(p.sent.chatId, p.sent.messageId, text)
      .catch((err: Error) => this.deps.log(`escalation: cannot edit the message: ${err.message}`));
  }

  /**
   * A button pressed on `platform` of `profile`: undefined when it is not an escalated request
   * (the platform's own pipeline takes it), else what became of it. Only a press in the home
   * channel by someone the platform admits and lets answer approvals counts (a home channel may be
   * a group: its other members approve nothing).
   * @param mayApprove the platform's access rules admit the presser and let them answer approvals.
   */
  button(
    profile: string,
    platform: string,
    press: ButtonPress,
    mayApprove = false,
  ): ButtonOutcome | undefined {
    const p = this.pending.get(press.requestId);
    if (!p?.sent || p.live.profile !== profile || p.sent.platform !== platform) return undefined;
    const chat = press.source.chatId ?? press.source.userId;
    if (chat !== p.sent.chatId)
      return { kind: 'refused', reason: 'This question belongs to the owner’s chat.' };
    if (!mayApprove) return { kind: 'refused', reason: 'You may not answer approvals here.' };
    if (!(ESCALATED_CHOICES as readonly string[]).includes(press.value))
      return { kind: 'refused', reason: 'From a chat only "once" or "deny" can be answered.' };
    const who = press.source.userName ?? press.source.userId ?? 'unknown';
    const r = p.live.answer('approval', press.requestId, press.value, `${platform}:${who}`);
    return r.status === 'accepted' ? { kind: 'answered' } : { kind: 'closed' };
  }

  /** Stops every timer (daemon stop). */
  close(): void {
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
  }

  private async escalate(p: Pending, platform: string): Promise<void> {
    const id = p.open.request_id;
    if (this.pending.get(id) !== p) return;
    if (!p.live.openRequests().some((r) => r.request_id === id)) {
      this.pending.delete(id);
      return;
    }
    const profile = p.live.profile;
    const adapter = (this.deps.adapter ?? getLiveAdapter)(profile, platform);
    if (!adapter) {
      this.deps.log(`escalation: ${platform} is not connected in profile ${profile}; approval ${id} waits`);
      return;
    }
    let chatId: string | undefined;
    try {
      chatId = await homeChannel(this.deps.profile(profile), platform);
    } catch (err) {
      this.deps.log(`escalation: ${(err as Error).message}`);
    }
    if (!chatId) {
      this.deps.log(
        `escalation: no home channel for ${platform} in profile ${profile}; approval ${id} waits`,
      );
      return;
    }
    const params = p.open.params as { command?: string; description?: string };
    const command = params.command ?? '';
    const description = `${params.description ?? 'needs approval'} (session ${p.live.id}, profile ${profile}; nobody answered at the terminal)`;
    const text = `Approval needed: ${command}`;
    try {
      const r = await adapter.sendApproval(chatId, {
        requestId: id,
        command,
        description,
        choices: [...ESCALATED_CHOICES],
      });
      if (!r.ok) throw new Error(r.error ?? 'send failed');
      if (this.pending.get(id) !== p) return; // answered meanwhile
      p.sent = { platform, chatId, adapter, text, ...(r.messageId ? { messageId: r.messageId } : {}) };
      this.deps.escalated?.(p.live, id, platform);
      this.deps.log(`escalation: approval ${id} of session ${p.live.id} sent to ${platform}`);
    } catch (err) {
      this.deps.log(`escalation: sending approval ${id} to ${platform} failed: ${(err as Error).message}`);
    }
  }
}

/**
 * The owner's chat on `platform`: its `home_channel` setting, else the platform's cron
 * home-channel variable (e.g. `TELEGRAM_HOME_CHANNEL`) from the profile's secrets or environment.
 */
export async function homeChannel(
  p: { config: HermesConfig; secrets: Secrets },
  platform: string,
): Promise<string | undefined> {
  const configured = platformConfigOf(p.config.platforms, platform).home_channel;
  if (configured) return configured;
  if (!platformRegistry.isRegistered(platform)) return undefined;
  const entry = await platformRegistry.get(platform);
  return entry?.cronDeliverEnvVar ? lookupSecret(p.secrets, entry.cronDeliverEnvVar) : undefined;
}

/** Words for who settled a request (`client:…` a terminal, `telegram:Ann` a chat, `timeout` …). */
export function whoAnswered(by: string): string {
  if (by.startsWith('client:') || by.startsWith('connection:')) return 'answered at a terminal';
  const m = /^([a-z0-9_-]+):(.+)$/.exec(by);
  if (m) return `answered from ${m[1]} by ${m[2]}`;
  return by === 'timeout' ? 'no answer in time' : `settled by ${by}`;
}
