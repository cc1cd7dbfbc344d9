/**
 * A live session's queue of prompts waiting behind its running turn, kept durable in the
 * profile's SessionDB (`queued_prompts`, schema v3) so that neither a crash (`kill -9`) nor a
 * graceful stop loses what a user typed.
 *
 * Decision (documented in the README "Queued prompts across restarts"): a prompt is stored when
 * it has to wait, and removed when its turn starts or it is dropped. Prompts found stored when a
 * session is loaded (a previous daemon stopped or crashed before running them) come back **held**
 * (`held: true` on the wire): listed in the snapshot's `queued` and in `prompt.queued`, never run
 * by themselves — after a crash the user decides (`/queue run` runs them, `/queue drop` discards
 * them). A graceful stop holds the waiting prompts the same way instead of dropping them.
 */
import { randomBytes } from 'node:crypto';
import { attachmentInfos, storedImages, type StoredImage } from '@hermes/core/images';
import type { QueuedPrompt } from '@hermes/core/protocol';
import type { QueuedPromptRecord } from '@hermes/core/state';

/**
 * A new prompt with a fresh id (`p-` and 10 hex digits).
 * @param by who submitted it (connection id or client name).
 * @param origin id of the inbound message it answers.
 * @param images its checked images, listed as attachments (kind, name, mime, bytes).
 */
export function newPrompt(
  text: string,
  by?: string,
  origin?: string,
  images: StoredImage[] = [],
): QueuedPrompt {
  return {
    prompt_id: `p-${randomBytes(5).toString('hex')}`,
    text,
    ...(by ? { by } : {}),
    ...(origin ? { origin } : {}),
    ...(images.length
      ? { attachments: images.map(({ kind, name, mime, bytes }) => ({ kind, name, mime, bytes })) }
      : {}),
  };
}

/** What clients are told of the `waiting` prompts a shutdown held (each text cut at 200 chars). */
export function shutdownNotice(waiting: QueuedPrompt[]): string {
  const list = waiting
    .map((q) => `- ${q.text.length > 200 ? `${q.text.slice(0, 200)}…` : q.text}`)
    .join('\n');
  return (
    `The daemon is shutting down: ${waiting.length} queued prompt(s) did not run. They are kept in ` +
    `this session's queue: after the restart /queue run runs them, /queue drop discards them.\n${list}`
  );
}

/** The part of SessionDB the queue writes to. */
export interface PromptQueueStore {
  queuePrompt(
    sessionId: string,
    p: { promptId: string; text: string; by?: string; origin?: string; attachments?: string },
  ): void;
  unqueuePrompt(promptId: string): boolean;
  queuedPrompts(sessionId: string): QueuedPromptRecord[];
}

interface Item {
  prompt: QueuedPrompt;
  /** True once written to the store. */
  stored: boolean;
  /** The prompt's images (media store records; the wire prompt lists their chips). */
  images?: StoredImage[];
}

/** The ordered queue of one live session. */
export class PromptQueue {
  private items: Item[] = [];

  /**
   * Loads the prompts a previous daemon left stored for this session, as held.
   * @param store the profile's SessionDB.
   * @param sessionId current id of the session (it changes after context compression).
   * @param warn where a failed store write is reported (the prompt then lives in memory only).
   */
  constructor(
    private readonly store: PromptQueueStore,
    private readonly sessionId: () => string,
    private readonly warn: (msg: string) => void,
  ) {
    let rows: QueuedPromptRecord[] = [];
    try {
      rows = store.queuedPrompts(sessionId());
    } catch (err) {
      warn(`session ${sessionId()}: cannot read its stored queue: ${(err as Error).message}`);
    }
    for (const r of rows) {
      const images = storedImages(r.attachments);
      const chips = attachmentInfos(r.attachments);
      this.items.push({
        prompt: {
          prompt_id: r.prompt_id,
          text: r.text,
          ...(r.queued_by ? { by: r.queued_by } : {}),
          ...(r.origin ? { origin: r.origin } : {}),
          ...(chips.length ? { attachments: chips } : {}),
          held: true,
        },
        stored: true,
        ...(images.length ? { images } : {}),
      });
    }
  }

  /** Number of prompts waiting (held ones included). */
  get length(): number {
    return this.items.length;
  }

  /** True when a prompt that may run now waits (held ones do not count). */
  get hasRunnable(): boolean {
    return this.items.some((i) => !i.prompt.held);
  }

  /** The wire list, in queue order (a copy). */
  list(): QueuedPrompt[] {
    return this.items.map((i) => ({ ...i.prompt }));
  }

  /**
   * Adds a prompt (at the end unless `first`).
   * @param persist store it (true when it has to wait for a running turn).
   * @param images its images (stored with it; `takeNext` hands them back).
   * @param first put it ahead of the prompts already waiting (guidance that missed its turn).
   */
  add(prompt: QueuedPrompt, persist: boolean, images?: StoredImage[], first = false): void {
    const item: Item = { prompt, stored: false, ...(images?.length ? { images } : {}) };
    if (first) this.items.unshift(item);
    else this.items.push(item);
    if (persist) this.persist(item);
  }

  /**
   * Removes the first prompt that is not held (its turn starts) from the queue, or undefined.
   * A stored prompt stays stored: `stored` tells the caller to remove its row in the transaction
   * that stores its user message (`runTurn`'s `queuedPromptId`), so a crash between the two
   * leaves the prompt held, never lost; `forget` removes the row of a turn that failed earlier.
   */
  takeNext(): { prompt: QueuedPrompt; stored: boolean; images?: StoredImage[] } | undefined {
    const i = this.items.findIndex((it) => !it.prompt.held);
    if (i < 0) return undefined;
    const [item] = this.items.splice(i, 1);
    return { prompt: item!.prompt, stored: item!.stored, ...(item!.images ? { images: item!.images } : {}) };
  }

  /** Removes the stored row of a prompt `takeNext` handed out whose turn never stored it. */
  forget(prompt: QueuedPrompt): void {
    this.unstore({ prompt, stored: true });
  }

  /** Holds every waiting prompt (shutdown): stored, not run by this daemon. @returns how many. */
  holdAll(): number {
    for (const item of this.items) {
      item.prompt.held = true;
      if (!item.stored) this.persist(item);
    }
    return this.items.length;
  }

  /** Lets the held prompts run, in queue order. @returns how many were held. */
  release(): number {
    let n = 0;
    for (const item of this.items) {
      if (!item.prompt.held) continue;
      delete item.prompt.held;
      n++;
    }
    return n;
  }

  /** Removes the waiting prompts (held or not) that `pick` selects. @returns them, in queue order. */
  take(pick: (p: QueuedPrompt) => boolean): QueuedPrompt[] {
    const taken = this.items.filter((i) => pick(i.prompt));
    this.items = this.items.filter((i) => !taken.includes(i));
    for (const item of taken) this.unstore(item);
    return taken.map((i) => i.prompt);
  }

  /** Discards every waiting prompt (held or not). @returns the prompts dropped. */
  dropAll(): QueuedPrompt[] {
    const dropped = this.items;
    this.items = [];
    for (const item of dropped) this.unstore(item);
    return dropped.map((i) => i.prompt);
  }

  private persist(item: Item): void {
    try {
      this.store.queuePrompt(this.sessionId(), {
        promptId: item.prompt.prompt_id,
        text: item.prompt.text,
        ...(item.prompt.by ? { by: item.prompt.by } : {}),
        ...(item.prompt.origin ? { origin: item.prompt.origin } : {}),
        ...(item.images?.length ? { attachments: JSON.stringify(item.images) } : {}),
      });
      item.stored = true;
    } catch (err) {
      this.warn(
        `session ${this.sessionId()}: queued prompt ${item.prompt.prompt_id} not stored (lost if the daemon crashes): ${(err as Error).message}`,
      );
    }
  }

  private unstore(item: Item): void {
    if (!item.stored) return;
    try {
      this.store.unqueuePrompt(item.prompt.prompt_id);
      item.stored = false;
    } catch (err) {
      this.warn(
        `session ${this.sessionId()}: cannot remove stored prompt ${item.prompt.prompt_id}: ${(err as Error).message}`,
      );
    }
  }
}
