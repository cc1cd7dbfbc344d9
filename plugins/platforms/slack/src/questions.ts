/**
 * The adapter's table of approval and clarify questions shown with buttons: a button carries a
 * short token of this table (blocks.ts), the table knows the request id, the choices, where the
 * message is, and who may answer (the person whose message started the turn, when known). Bounded:
 * the oldest entries are dropped past `max`, so a press on a very old message reads as closed.
 */

/** One question shown with buttons. */
export interface ShownQuestion {
  token: string;
  requestId: string;
  kind: 'approval' | 'clarify';
  /** Choice values by button index. */
  values: string[];
  channel: string;
  threadId?: string;
  /** ts of the question's message, once posted. */
  ts?: string;
  /** Slack user id allowed to press (undefined: left to the pipeline's checks alone). */
  owner?: string;
  /** The question's section text, kept when the message is rewritten as answered. */
  section: string;
  /** Who pressed the button that answered it. */
  pressedBy?: string;
  /** The value that press chose. */
  pressedValue?: string;
  /** Settled (answered, withdrawn or timed out). */
  done?: boolean;
}

/** Questions by token and by request id. */
export class QuestionTable {
  private readonly byToken = new Map<string, ShownQuestion>();
  private next = 1;

  constructor(private readonly max = 500) {}

  /** Registers a question and returns it with its new token. */
  add(q: Omit<ShownQuestion, 'token'>): ShownQuestion {
    const token = (this.next++).toString(36);
    const entry = { ...q, token };
    this.byToken.set(token, entry);
    if (this.byToken.size > this.max) this.byToken.delete(this.byToken.keys().next().value!);
    return entry;
  }

  /** The question of a button token. */
  get(token: string): ShownQuestion | undefined {
    return this.byToken.get(token);
  }

  /** The newest question shown for a request id. */
  byRequest(requestId: string): ShownQuestion | undefined {
    let found: ShownQuestion | undefined;
    for (const q of this.byToken.values()) if (q.requestId === requestId) found = q;
    return found;
  }
}

/** A bounded set (oldest entries dropped first). */
export class BoundedSet {
  private readonly items = new Set<string>();

  constructor(private readonly max: number) {}

  add(key: string): void {
    this.items.delete(key);
    this.items.add(key);
    if (this.items.size > this.max) this.items.delete(this.items.values().next().value!);
  }

  has(key: string): boolean {
    return this.items.has(key);
  }

  delete(key: string): boolean {
    return this.items.delete(key);
  }
}
