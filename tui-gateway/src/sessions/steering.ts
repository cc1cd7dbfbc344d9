/**
 * Guidance for a running turn (`/steer TEXT`, `session.steer`): held by the live session until the
 * agent reaches a step boundary (after the tool calls in progress, before its next model request),
 * then handed over in order and stored as user messages with status `guidance`. Nothing is lost
 * in a race: guidance that arrives when no turn runs, or that is still waiting when the turn ends
 * (a final answer came before any boundary), runs as the next prompt — ahead of other queued
 * prompts — and every client is told which way it went (`prompt.steered`). Waiting guidance is
 * stored like a queued prompt (`persist`) until it is handed over, so a `kill -9` before the
 * boundary leaves it held in the session's queue after the restart (`/queue run` sends it),
 * never lost.
 */
import { randomBytes } from 'node:crypto';
import type { EventPayload, MethodResult } from '@hermes/core/protocol';

/** What steering needs of its live session. */
export interface SteeringHost {
  emit(type: 'prompt.steered', payload: EventPayload<'prompt.steered'>): void;
  /**
   * Submits `text` as a prompt; `first`: ahead of the prompts already waiting.
   * @returns the prompt's id.
   */
  submitPrompt(text: string, by: string | undefined, first: boolean): string;
  /**
   * Keeps waiting guidance durable (the session's stored queue): `add` when it starts waiting,
   * `remove` once it was handed over or became a prompt. Failures are the host's to report.
   */
  persist?: { add(id: string, text: string, by: string | undefined): void; remove(id: string): void };
}

interface Pending {
  id: string;
  text: string;
  by?: string;
}

/** The guidance waiting for the running turn's next step boundary. */
export class Steering {
  private pending: Pending[] = [];

  constructor(private readonly host: SteeringHost) {}

  /** Guidance waiting for a boundary. */
  get waiting(): number {
    return this.pending.length;
  }

  /**
   * Accepts guidance. While a turn runs (`turnRunning`) it waits for the next step boundary
   * (`prompt.steered` `pending`); otherwise it is submitted as a prompt at once, without a
   * `prompt.steered` event.
   */
  steer(text: string, by: string | undefined, turnRunning: boolean): MethodResult<'session.steer'> {
    const id = `st-${randomBytes(5).toString('hex')}`;
    const who = by ? { by } : {};
    if (!turnRunning) {
      // a plain prompt then: clients see it as one (`turn.start` or `prompt.queued`)
      const promptId = this.host.submitPrompt(text, by, false);
      return { steer_id: id, status: 'prompt', prompt_id: promptId };
    }
    this.pending.push({ id, text, ...who });
    this.host.persist?.add(id, text, by);
    this.host.emit('prompt.steered', { steer_id: id, text, state: 'pending', ...who });
    return { steer_id: id, status: 'pending' };
  }

  /**
   * The agent reached a step boundary: hands over the waiting guidance, in order, and tells the
   * clients it was delivered. @returns the texts (empty when none waits).
   */
  take(): string[] {
    const taken = this.pending.splice(0);
    for (const p of taken) {
      this.host.persist?.remove(p.id);
      this.announce(p, 'delivered');
    }
    return taken.map((p) => p.text);
  }

  /**
   * The turn ended: guidance still waiting becomes the next prompt (several joined by a blank
   * line, in order), ahead of other queued prompts. @returns its prompt id, or undefined.
   */
  turnEnded(): string | undefined {
    const left = this.pending.splice(0);
    if (left.length === 0) return undefined;
    const text = left.map((p) => p.text).join('\n\n');
    const promptId = this.host.submitPrompt(text, left[0]!.by, true);
    for (const p of left) {
      this.host.persist?.remove(p.id);
      this.announce(p, 'prompt', promptId);
    }
    return promptId;
  }

  /** Tells every client where guidance `p` went (`prompt.steered`). */
  private announce(p: Pending, state: 'delivered' | 'prompt', promptId?: string): void {
    this.host.emit('prompt.steered', {
      steer_id: p.id,
      text: p.text,
      state,
      ...(promptId ? { prompt_id: promptId } : {}),
      ...(p.by ? { by: p.by } : {}),
    });
  }
}
