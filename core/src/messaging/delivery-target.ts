/**
 * Delivery targets: where a reply or a cron result goes.
 *
 * | text                        | meaning                                         |
 * |-----------------------------|-------------------------------------------------|
 * | `origin`                    | back to the chat the job/session came from       |
 * | `local`                     | a file under `<home>/cron/output/` only          |
 * | `<platform>`                | the platform's home channel                      |
 * | `<platform>:<chat>`         | that chat                                        |
 * | `<platform>:<chat>:<thread>`| that thread of that chat                         |
 *
 * Keywords and platform names are case-insensitive and stored lower-cased; chat and thread ids
 * keep their case (many platforms' ids are case-sensitive).
 */
import type { MessageSource } from './source.js';

/** Platform names the target syntax accepts (registry names are of this shape). */
export const PLATFORM_NAME_RE = /^[a-z][a-z0-9_-]{0,63}$/;

/** The kind of a parsed target. */
export type DeliveryTargetKind = 'origin' | 'local' | 'platform';

/** A parsed, immutable delivery target. */
export class DeliveryTarget {
  private constructor(
    readonly kind: DeliveryTargetKind,
    /** Lower-cased platform name (kind `platform`). */
    readonly platform?: string,
    /** Chat id, case kept; undefined means the platform's home channel. */
    readonly chatId?: string,
    /** Thread id inside the chat, case kept. */
    readonly threadId?: string,
  ) {}

  /** `origin`. */
  static origin(): DeliveryTarget {
    return new DeliveryTarget('origin');
  }

  /** `local`. */
  static local(): DeliveryTarget {
    return new DeliveryTarget('local');
  }

  /**
   * A platform target.
   * @throws Error for a malformed platform name or an empty chat id.
   */
  static platform(platform: string, chatId?: string, threadId?: string): DeliveryTarget {
    const p = platform.trim().toLowerCase();
    if (!PLATFORM_NAME_RE.test(p)) throw new Error(`invalid platform name "${platform}" in delivery target`);
    if (chatId !== undefined && chatId.trim() === '')
      throw new Error(`empty chat id in delivery target "${platform}:"`);
    if (threadId !== undefined && threadId.trim() === '')
      throw new Error(`empty thread id in delivery target "${platform}:${chatId}:"`);
    return new DeliveryTarget('platform', p, chatId?.trim(), threadId?.trim());
  }

  /**
   * Parses `origin`, `local`, `<platform>`, `<platform>:<chat>` or `<platform>:<chat>:<thread>`
   *. The text is split at its first two colons, so a thread id may itself
   * contain colons.
   * @throws Error naming the text when it is empty, the platform name is malformed, or a chat or
   *   thread part is empty.
   */
  static parse(text: string): DeliveryTarget {
    const t = String(text ?? '').trim();
    if (!t) throw new Error('empty delivery target (use origin, local, <platform> or <platform>:<chat>)');
    const lower = t.toLowerCase();
    if (lower === 'origin') return DeliveryTarget.origin();
    if (lower === 'local') return DeliveryTarget.local();
    const first = t.indexOf(':');
    if (first === -1) return DeliveryTarget.platform(t);
    const platform = t.slice(0, first);
    const rest = t.slice(first + 1);
    const second = rest.indexOf(':');
    const chat = second === -1 ? rest : rest.slice(0, second);
    const thread = second === -1 ? undefined : rest.slice(second + 1);
    try {
      return DeliveryTarget.platform(platform, chat, thread);
    } catch (err) {
      throw new Error(`invalid delivery target "${t}": ${(err as Error).message}`, { cause: err });
    }
  }

  /** The target for a message source (a reply to where it came from). */
  static fromSource(source: MessageSource): DeliveryTarget {
    return DeliveryTarget.platform(source.platform, source.chatId, source.threadId);
  }

  /** True for `<platform>` without a chat: the platform's home channel. */
  get isHomeChannel(): boolean {
    return this.kind === 'platform' && this.chatId === undefined;
  }

  /**
   * Replaces `origin` by the origin's platform/chat/thread; `local` when there is no origin.
   * Other targets are returned unchanged.
   */
  resolve(origin?: MessageSource): DeliveryTarget {
    if (this.kind !== 'origin') return this;
    return origin ? DeliveryTarget.fromSource(origin) : DeliveryTarget.local();
  }

  /** The canonical text form; `DeliveryTarget.parse(t.toString())` equals `t`. */
  toString(): string {
    if (this.kind !== 'platform') return this.kind;
    if (this.chatId === undefined) return this.platform!;
    return this.threadId !== undefined
      ? `${this.platform}:${this.chatId}:${this.threadId}`
      : `${this.platform}:${this.chatId}`;
  }

  /** JSON form is the text form. */
  toJSON(): string {
    return this.toString();
  }
}
