/**
 * Which keys an approval card takes and which go on to the composer (pure; no Ink rendering).
 *
 * The rule, with `APPROVAL_ARM_MS` = 600 ms and `APPROVAL_BURST_MS` = 350 ms:
 * - The card is armed once it has been shown `APPROVAL_ARM_MS` and no key has gone to the
 *   composer for `APPROVAL_BURST_MS`. Until then every key goes to the composer (typing that
 *   began before the card appeared, or goes on across it, stays the user's text, in order).
 * - Armed, a single choice key (`o s a d`, `1`–`4`; never part of a chunk or a paste) selects
 *   its choice. A selection followed within `APPROVAL_BURST_MS` by any other key was typing: the
 *   choice key and that key go to the composer and the card is unarmed again.
 * - `once` and `deny` are answered when their selection has stood `APPROVAL_BURST_MS` without a
 *   key. `session` and `always` wait for Enter (counted from `APPROVAL_BURST_MS` after the
 *   selection); Esc cancels the selection, another choice key moves it, any other key cancels it
 *   and goes, with the choice key, to the composer.
 * - A bare Enter with nothing selected answers nothing and does not send the draft either; nor
 *   does an Enter read in one chunk with typed text (at its end, or inside a burst that holds an
 *   editing key: it stays a line break of the draft).
 * - Esc with nothing selected denies.
 */
import type { ApprovalChoice } from '@hermes/core/protocol';
import { APPROVAL_ARM_MS, APPROVAL_BURST_MS } from '@hermes/core/constants';
import type { Key } from 'ink';
import { isTypedBurst } from './composer-keys.js';

/** An approval answer (the protocol's one list). */
export type { ApprovalChoice };

/** One key event as Ink delivers it. */
export interface CardKey {
  input: string;
  key: Key;
}

/** What one key did. */
export interface GateResult {
  /** Keys for the composer, in order. */
  pass: CardKey[];
  /** The answer this key gave. */
  answer?: ApprovalChoice;
  /** A bare Enter that answered nothing (the card says which keys answer). */
  enterHeld?: boolean;
}

/** The arming interval and the burst gap, ms. */
export interface GateTiming {
  armMs: number;
  burstMs: number;
}

/** The timing of the shared rule. */
export const DEFAULT_TIMING: GateTiming = { armMs: APPROVAL_ARM_MS, burstMs: APPROVAL_BURST_MS };

/** A choice with the keys that select it. */
export interface GateChoice {
  choice: ApprovalChoice;
  key: string;
  num: string;
}

const PASTE_START = '[200~';
const PASTE_END = '[201~';

/** The two choices that need Enter to confirm. */
export const needsConfirm = (c: ApprovalChoice): boolean => c === 'session' || c === 'always';

const isBareEnter = (input: string, key: Key): boolean =>
  key.return && !key.shift && !key.meta && !key.ctrl && (input === '' || input === '\r');

/** The key state of one approval card; times are ms on the card's clock. */
export class ApprovalKeyGate {
  private lastTyped: number;
  private paste = false;
  private sel: { choice: ApprovalChoice; at: number; key: CardKey } | null = null;

  /**
   * @param offered the choices on the card with their keys.
   * @param shownAt when the card was first shown.
   */
  constructor(
    private readonly offered: readonly GateChoice[],
    readonly shownAt: number,
    private readonly timing: GateTiming = DEFAULT_TIMING,
  ) {
    this.lastTyped = shownAt;
  }

  /** When the card arms if no further key goes to the composer. */
  armsAt(): number {
    return Math.max(this.shownAt + this.timing.armMs, this.lastTyped + this.timing.burstMs);
  }

  /** Whether a choice key pressed at `t` would select its choice. */
  armed(t: number): boolean {
    return this.sel === null && t >= this.armsAt();
  }

  /** The selected choice, or null. */
  get selected(): ApprovalChoice | null {
    return this.sel?.choice ?? null;
  }

  /** Whether the selection has stood long enough to count (Enter confirms `session`/`always`). */
  settled(t: number): boolean {
    return this.sel !== null && t >= this.sel.at + this.timing.burstMs;
  }

  /**
   * The next time the card's state changes by itself (it arms, a selection settles), or null. A
   * `once`/`deny` selection that has settled but is not yet answered (its timer ran a moment
   * before its time, and the card redrew after it) returns its settle time, already past: the
   * caller answers it at once (`due`) rather than waiting for a key that may never come.
   */
  nextChange(t: number): number | null {
    if (this.sel) {
      const at = this.sel.at + this.timing.burstMs;
      if (!this.settled(t)) return at;
      return needsConfirm(this.sel.choice) ? null : at;
    }
    const at = this.armsAt();
    return at > t ? at : null;
  }

  /** The answer of a `once`/`deny` selection that has stood long enough by `t` (then cleared). */
  due(t: number): ApprovalChoice | undefined {
    if (!this.sel || needsConfirm(this.sel.choice) || !this.settled(t)) return undefined;
    const { choice } = this.sel;
    this.sel = null;
    return choice;
  }

  /** Applies one key pressed at `t`. */
  key(input: string, key: Key, t: number): GateResult {
    const committed = this.due(t);
    if (committed) return { answer: committed, pass: [{ input, key }] };
    const k = { input, key };
    if (this.paste || input.startsWith(PASTE_START)) {
      // pasted text is the user's, whatever letters it holds
      this.paste = !input.endsWith(PASTE_END);
      return this.typed(t, [...this.unselect(), k]);
    }
    if (key.escape) {
      if (this.sel) {
        this.sel = null;
        return { pass: [] };
      }
      return { pass: [], answer: 'deny' };
    }
    const sel = this.sel;
    if (sel && this.settled(t)) {
      if (isBareEnter(input, key)) {
        this.sel = null;
        return { pass: [], answer: sel.choice };
      }
      const c = this.choiceOf(input, key);
      if (c) return this.select(c, k, t);
    }
    // an unsettled selection was typing; a settled one is cancelled: its key is the user's text
    return this.route(k, t, this.unselect());
  }

  private route(k: CardKey, t: number, before: CardKey[]): GateResult {
    const c = before.length === 0 ? this.choiceOf(k.input, k.key) : null;
    if (c && t >= this.armsAt()) return this.select(c, k, t);
    if (isBareEnter(k.input, k.key)) return { ...this.typed(t, before), enterHeld: true };
    // a chunk typed faster than read ("go⏎") ends in one Enter: its text goes, the Enter is held
    const body = k.input.endsWith('\r') ? k.input.slice(0, -1) : null;
    if (body && !/[\r\n]/.test(body)) {
      return {
        ...this.typed(t, [...before, { input: body, key: { ...k.key, return: false } }]),
        enterHeld: true,
      };
    }
    // a burst typed with editing keys: its Enters are held too (the composer would send at them),
    // and stay line breaks of the draft
    if (isTypedBurst(k.input) && k.input.includes('\r')) {
      const input = k.input.replace(/\r/g, '\n');
      return { ...this.typed(t, [...before, { input, key: { ...k.key, return: false } }]), enterHeld: true };
    }
    return this.typed(t, [...before, k]);
  }

  private select(choice: ApprovalChoice, k: CardKey, t: number): GateResult {
    this.sel = { choice, at: t, key: k };
    return { pass: [] };
  }

  private unselect(): CardKey[] {
    const s = this.sel;
    this.sel = null;
    return s ? [s.key] : [];
  }

  private typed(t: number, pass: CardKey[]): GateResult {
    this.lastTyped = t;
    return { pass };
  }

  private choiceOf(input: string, key: Key): ApprovalChoice | null {
    if (key.ctrl || key.meta || input.length !== 1) return null;
    const c = this.offered.find((o) => input === o.key || input === o.key.toUpperCase() || input === o.num);
    return c?.choice ?? null;
  }
}

/** Time and timers of a card (tests pass a manual clock); ms. */
export interface CardClock {
  now(): number;
  /** Calls `fn` after `ms`; returns a function that cancels it. */
  after(ms: number, fn: () => void): () => void;
}

/** The real clock. */
export const systemClock: CardClock = {
  now: () => Date.now(),
  after: (ms, fn) => {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
};
