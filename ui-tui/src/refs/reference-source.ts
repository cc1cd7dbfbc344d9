/**
 * The TUI's side of `@` completion and attachments, one per controller: asks the daemon
 * (`files.complete`) for the token being typed — at most one request in flight, the newest query
 * sent when it returns, older answers dropped — and tells subscribers when an answer arrives, so
 * keys are never held up by it. While the daemon's listing is still being built (`ready: false`)
 * — or no session is open yet — the same query is asked again after `retryMs`. It remembers file sizes from answers (for chips),
 * the names accepted from the popup (so `@Makefile` counts as a file), and hands a message that
 * could not be sent back to the composer (`restore`).
 */
import type { FileCompletion, PromptAttachment } from '@hermes/core/protocol';
import { referencesIn } from './at-refs.js';

/** One answer of `files.complete` for a query. */
export interface CompletionResult {
  query: string;
  items: FileCompletion[];
  ready: boolean;
}

/** Options of `ReferenceSource`. */
export interface ReferenceSourceOptions {
  /** Calls `files.complete`; null when no session is open. */
  request: (query: string, limit: number) => Promise<{ items: FileCompletion[]; ready: boolean } | null>;
  /** Items asked for (default 12). */
  limit?: number;
  /** Delay before asking again while the listing is not ready, ms (default 150). */
  retryMs?: number;
}

/** Most times one query is asked again while the daemon cannot answer it fully (about 10 s). */
const MAX_RETRIES = 60;

/** See the file comment. */
export class ReferenceSource {
  private latest: CompletionResult | null = null;
  private wanted: string | null = null;
  private inFlight = false;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private retries = { query: '', count: 0 };
  private readonly listeners = new Set<() => void>();
  private readonly restorers = new Set<(text: string) => void>();
  private readonly sizes = new Map<string, number>();
  /** Paths accepted from the popup. */
  readonly accepted = new Set<string>();

  constructor(private readonly opts: ReferenceSourceOptions) {}

  /** The newest answer (maybe for an older query), or null. */
  get result(): CompletionResult | null {
    return this.latest;
  }

  /** Asks for completions of `query` (returns at once; subscribers hear of the answer). */
  query(query: string): void {
    if (this.wanted === query && (this.inFlight || this.latest?.query === query)) return;
    this.wanted = query;
    this.pump();
  }

  /** Stops asking (no token under the cursor). */
  cancel(): void {
    this.wanted = null;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
  }

  /** Called whenever a new answer arrives. @returns unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Remembers a path accepted from the popup. */
  accept(path: string): void {
    this.accepted.add(path);
  }

  /** The size of a file seen in an answer, bytes. */
  sizeOf(path: string): number | undefined {
    return this.sizes.get(path);
  }

  /** The attachments of a message about to be sent. */
  attachments(text: string): PromptAttachment[] {
    return referencesIn(text, this.accepted);
  }

  /** Gives a message that was not sent back to the composer. */
  restore(text: string): void {
    for (const r of this.restorers) r(text);
  }

  /** Registers the composer's restore. @returns unsubscribe. */
  onRestore(cb: (text: string) => void): () => void {
    this.restorers.add(cb);
    return () => this.restorers.delete(cb);
  }

  /** Asks for `query` again after `retryMs` while it is still wanted (at most `MAX_RETRIES` times). */
  private askAgain(query: string): void {
    if (this.wanted !== query || this.retry) return;
    if (this.retries.query !== query) this.retries = { query, count: 0 };
    if (++this.retries.count > MAX_RETRIES) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.wanted === query) this.pump();
    }, this.opts.retryMs ?? 150);
  }

  private pump(): void {
    if (this.inFlight || this.wanted === null) return;
    const query = this.wanted;
    this.inFlight = true;
    this.opts
      .request(query, this.opts.limit ?? 12)
      .then(
        (r) => {
          // no session open yet (typed during start-up), or the listing is still being built
          if (!r || !r.ready) this.askAgain(query);
          if (!r) return;
          for (const i of r.items) if (i.bytes !== undefined) this.sizes.set(i.path, i.bytes);
          this.latest = { query, items: r.items, ready: r.ready };
          for (const l of this.listeners) l();
        },
        () => undefined, // completion is a convenience: a failed request shows nothing
      )
      .finally(() => {
        this.inFlight = false;
        if (this.wanted !== null && this.wanted !== query) this.pump();
      });
  }
}
