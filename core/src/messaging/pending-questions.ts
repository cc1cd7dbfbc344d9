/**
 * Approval and clarify questions waiting for an answer in a chat. Keyed by session key, so a
 * `/approve` typed in a chat answers the question of that chat's session only; a button press
 * carries the request id and is checked against the presser's session key. A question also
 * knows who asked (the sender of the message that started the turn): in a session several
 * people share, only that person's answer counts — another participant's message is a message
 * of its own, never taken as the answer.
 */
import type { ApprovalChoiceName } from './adapter.js';

/** A question waiting in a chat. */
export interface PendingQuestion {
  kind: 'approval' | 'clarify';
  requestId: string;
  /** Session key of the chat that was asked. */
  key: string;
  /**
   * The user id (`userIdAlt || userId`) of the sender whose message started the turn, the only
   * chat user who may answer; undefined when unknown (then the session key decides).
   */
  askerId?: string;
  /** Clarify choices (a typed number picks one). */
  choices?: readonly string[];
  /** Settles the question; later calls do nothing. */
  answer(value: string): void;
  /** Called synchronously when the question is answered here (before the promise settles). */
  onAnswered?: () => void;
}

/** Open questions of one pipeline. */
export class PendingQuestions {
  private readonly byId = new Map<string, PendingQuestion>();

  /**
   * Registers a question and returns a promise of its answer. The question is removed when
   * answered or when `signal` aborts (someone else answered, timeout, interrupt); an abort
   * rejects the promise.
   */
  ask(q: Omit<PendingQuestion, 'answer'>, signal: AbortSignal): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const done = (): void => {
        this.byId.delete(q.requestId);
        signal.removeEventListener('abort', onAbort);
      };
      const onAbort = (): void => {
        done();
        reject(new Error('question withdrawn'));
      };
      if (signal.aborted) return reject(new Error('question withdrawn'));
      signal.addEventListener('abort', onAbort, { once: true });
      this.byId.set(q.requestId, {
        ...q,
        answer: (value) => {
          if (!this.byId.has(q.requestId)) return;
          done();
          q.onAnswered?.();
          resolve(value);
        },
      });
    });
  }

  /** True while the request is still waiting here. */
  has(requestId: string): boolean {
    return this.byId.has(requestId);
  }

  /** The question with this id. */
  get(requestId: string): PendingQuestion | undefined {
    return this.byId.get(requestId);
  }

  /** The oldest open question of a kind for a session key (that `answererId` may answer, when given). */
  oldest(key: string, kind: PendingQuestion['kind'], answererId?: string): PendingQuestion | undefined {
    for (const q of this.byId.values())
      if (q.key === key && q.kind === kind && (answererId === undefined || mayAnswer(q, answererId)))
        return q;
    return undefined;
  }

  /**
   * Answers the oldest approval of a key on behalf of `answererId`.
   * @returns `none` when none waits, `refused` when it waits for another person (nothing is
   *   answered), else `answered`.
   */
  answerApproval(
    key: string,
    choice: ApprovalChoiceName,
    answererId?: string,
  ): 'answered' | 'none' | 'refused' {
    const q = this.oldest(key, 'approval');
    if (!q) return 'none';
    if (!mayAnswer(q, answererId)) return 'refused';
    q.answer(choice);
    return 'answered';
  }

  /**
   * Answers the oldest clarify question of a key that `answererId` may answer with a typed text;
   * a number picks the choice with that (1-based) index. @returns false when none waits for them.
   */
  answerClarify(key: string, text: string, answererId?: string): boolean {
    const q = this.oldest(key, 'clarify', answererId ?? '');
    if (!q) return false;
    const n = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
    q.answer(q.choices && n >= 1 && n <= q.choices.length ? q.choices[n - 1]! : text);
    return true;
  }
}

/** What a chat user who may not answer an approval is told. */
export const NOT_THE_ASKER = 'Only the person who asked can answer this approval.';

/** What a chat user who may not answer a clarify question is told (a button press). */
export const NOT_THE_ASKER_CLARIFY = 'Only the person who asked can answer this question.';

/** True when `userId` may answer `q`: its asker, or anyone in its session when the asker is unknown. */
export function mayAnswer(q: Pick<PendingQuestion, 'askerId'>, userId: string | undefined): boolean {
  return q.askerId === undefined || q.askerId === userId;
}
