/**
 * The owner of open requests in process: first answer wins, the one deadline, interrupt, the
 * answer rule (exact offered choices; unusable answers settle fail closed), and the book's memory
 * of settled requests for late answers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultConfig } from '../config/schema.js';
import { HermesHome } from '../home/home.js';
import { createApprovalGuard } from './guard.js';
import { APPROVAL_CHOICES, PendingRequest, RequestBook, type Settlement } from './pending.js';
import type { ApprovalCallback } from './types.js';

const approval = (over: Partial<ConstructorParameters<typeof PendingRequest<'approval'>>[0]> = {}) =>
  new PendingRequest({ kind: 'approval', id: 'a1', timeoutMs: 1_000, ...over });

describe('PendingRequest', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('the first of concurrent answers wins; the others learn who answered and with what', async () => {
    const r = approval();
    const seen: Settlement[] = [];
    r.onSettled((s) => seen.push(s));
    const first = r.answer('once', 'client:a');
    const second = r.answer('deny', 'client:b');
    const third = r.answerReply({ choice: 'always' }, 'connection:c-3');
    expect(first).toEqual({
      status: 'accepted',
      settlement: { value: 'once', by: 'client:a', how: 'answered' },
    });
    expect(second).toEqual({ status: 'resolved', settlement: first.settlement });
    expect(third).toEqual({ status: 'resolved', settlement: first.settlement });
    expect(seen).toEqual([first.settlement]); // told once
    await expect(r.settled).resolves.toEqual(first.settlement);
    expect(r.signal.aborted).toBe(true); // frontends drop their prompt
  });

  it('no answer before the deadline → deny by timeout; a later answer is refused as resolved', async () => {
    const r = approval({ timeoutMs: 300_000, now: () => 1_000 });
    expect(r.expiresAt).toBe(301_000);
    vi.advanceTimersByTime(299_999);
    expect(r.settlement).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(r.settlement).toEqual({ value: 'deny', by: 'timeout', how: 'timeout' });
    expect(r.answer('once', 'client:late')).toEqual({ status: 'resolved', settlement: r.settlement });
  });

  it('an interrupt (abort) → deny by interrupt, at once or when already aborted; later answers resolved', () => {
    const ctl = new AbortController();
    const r = approval({ signal: ctl.signal });
    ctl.abort();
    expect(r.settlement).toEqual({ value: 'deny', by: 'interrupt', how: 'withdrawn' });
    expect(r.answer('once', 'client:a').status).toBe('resolved');
    const early = approval({ id: 'a2', signal: AbortSignal.abort() });
    expect(early.settlement).toMatchObject({ value: 'deny', by: 'interrupt' });
    // one settlement: the deadline passing later changes nothing
    vi.advanceTimersByTime(5_000);
    expect(r.settlement?.by).toBe('interrupt');
  });

  it('a choice that was not offered denies at once, by whoever sent it, saying what was allowed', () => {
    const r = approval({ choices: ['once', 'deny'] });
    const out = r.answer('session', 'client:a');
    expect(out.status).toBe('refused');
    expect(out.settlement).toMatchObject({ value: 'deny', by: 'client:a', how: 'refused' });
    expect(out.settlement.message).toBe(
      'approval request a1: client:a gave no usable answer (the choice "session" was not offered; ' +
        'allowed: "once", "deny"): the command was denied',
    );
    // the first answer settled it: a good one after it does not apply
    expect(r.answer('once', 'client:b')).toEqual({ status: 'resolved', settlement: out.settlement });
  });

  it.each([
    ['"ONCE"', 'ONCE', 'the choice "ONCE" was not offered'],
    ['"once " (trailing space)', 'once ', 'the choice "once " was not offered'],
    ['a number', 1, 'the answer 1 is not a choice'],
    ['undefined', undefined, 'the answer undefined is not a choice'],
  ])('an invalid choice (%s) denies', (_what, raw, problem) => {
    const r = approval();
    const out = r.answer(raw, 'connection:c-1');
    expect(out.status).toBe('refused');
    expect(out.settlement.value).toBe('deny');
    expect(out.settlement.message).toContain(problem);
    expect(out.settlement.message).toContain(`allowed: ${APPROVAL_CHOICES.map((c) => `"${c}"`).join(', ')}`);
  });

  it('a reply of the wrong shape, or a refusal (a JSON-RPC error reply), denies', () => {
    for (const reply of ['once', ['once'], null, { answer: 'once' }]) {
      const r = approval();
      const out = r.answerReply(reply, 'connection:c-1');
      expect(out.status).toBe('refused');
      expect(out.settlement.message).toContain('a reply of the wrong shape');
    }
    const r = approval();
    expect(r.refuse('connection:c-2', 'the client could not show it [-32603]').settlement).toMatchObject({
      value: 'deny',
      by: 'connection:c-2',
      how: 'refused',
    });
  });

  it('a deny may say no one could approve (no_approver); a reason with another choice or unknown denies', () => {
    const r = approval();
    expect(r.answerReply({ choice: 'deny', reason: 'no_approver' }, 'connection:c-1').settlement).toEqual({
      value: 'deny',
      by: 'connection:c-1',
      how: 'answered',
      reason: 'no_approver',
    });
    // a reason can never turn into an approval: with `once` it is an unusable answer
    const withOnce = approval().answer('once', 'connection:c-1', 'no_approver');
    expect(withOnce.status).toBe('refused');
    expect(withOnce.settlement).toMatchObject({ value: 'deny', how: 'refused' });
    expect(withOnce.settlement.message).toContain('given with "once", not "deny"');
    const unknown = approval().answer('deny', 'connection:c-1', 'busy');
    expect(unknown.status).toBe('refused');
    expect(unknown.settlement.message).toContain('the reason "busy" is not one of "no_approver"');
    expect(unknown.settlement.reason).toBeUndefined();
  });

  it('clarify: any text or null (cancel) is an answer; anything else cancels the question', () => {
    const q = new PendingRequest({ kind: 'clarify', id: 'q1', choices: ['main', 'dev'], timeoutMs: 10 });
    expect(q.answer('feature-x', 'client:a').settlement).toEqual({
      value: 'feature-x',
      by: 'client:a',
      how: 'answered',
    });
    const cancelled = new PendingRequest({ kind: 'clarify', timeoutMs: 10 });
    expect(cancelled.id).toMatch(/^clarify-[0-9a-f]{12}$/);
    expect(cancelled.answerReply({ answer: null }, 'client:a').settlement.value).toBeNull();
    const bad = new PendingRequest({ kind: 'clarify', id: 'q3', timeoutMs: 10 });
    const out = bad.answer(42, 'client:a');
    expect(out.status).toBe('refused');
    expect(out.settlement.value).toBeNull();
    expect(out.settlement.message).toMatch(
      /q3: client:a gave no usable answer .* the question was cancelled$/,
    );
    const silent = new PendingRequest({ kind: 'clarify', timeoutMs: 10 });
    vi.advanceTimersByTime(10);
    expect(silent.settlement).toEqual({ value: null, by: 'timeout', how: 'timeout' });
  });
});

describe('RequestBook', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('files requests, forgets them when settled, and answers late answers with who won', () => {
    const settled: string[] = [];
    const book = new RequestBook({ onSettled: (r, s) => settled.push(`${r.id}:${s.value}:${s.by}`) });
    const guardOwned = approval({ id: 'g1' }); // opened by the guard, filed by the daemon
    book.add(guardOwned);
    const q = book.open({ kind: 'clarify', id: 'q1', timeoutMs: 50 });
    expect(book.list().map((r) => r.id)).toEqual(['g1', 'q1']);

    expect(book.answer('g1', 'approval', 'once', 'client:a').status).toBe('accepted');
    expect(book.answer('g1', 'approval', 'deny', 'client:b')).toEqual({
      status: 'resolved',
      settlement: { value: 'once', by: 'client:a', how: 'answered' },
    });
    expect(book.answer('q1', 'approval', 'once', 'client:a')).toEqual({
      status: 'wrong_kind',
      kind: 'clarify',
    });
    expect(q.settlement).toBeUndefined(); // a wrong method settles nothing
    vi.advanceTimersByTime(50);
    expect(book.answer('q1', 'clarify', 'main', 'client:a')).toMatchObject({
      status: 'resolved',
      settlement: { value: null, by: 'timeout' },
    });
    expect(book.answer('nope', 'approval', 'once', 'client:a')).toEqual({ status: 'unknown' });
    expect(book.lookup('g1')).toMatchObject({ state: 'settled', kind: 'approval' });
    expect(book.list()).toEqual([]);
    expect(settled).toEqual(['g1:once:client:a', 'q1:null:timeout']);
  });

  it('withdraws every open request (interrupt), and remembers a bounded number of settled ones', () => {
    const book = new RequestBook({ remember: 2 });
    const ids = ['r1', 'r2', 'r3'];
    for (const id of ids) book.open({ kind: 'approval', id, timeoutMs: 1_000 });
    book.withdrawAll('interrupt');
    expect(book.list()).toEqual([]);
    expect(book.answer('r3', 'approval', 'once', 'client:a')).toMatchObject({
      status: 'resolved',
      settlement: { value: 'deny', by: 'interrupt', how: 'withdrawn' },
    });
    expect(book.lookup('r1')).toEqual({ state: 'unknown' }); // the oldest was forgotten
  });
});

describe('the guard asks through one PendingRequest', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'hermes-pending-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const guardWith = (callback: ApprovalCallback, timeoutMs = 60_000) =>
    createApprovalGuard({
      config: defaultConfig(),
      home: new HermesHome(root).ensure(),
      sessionId: 's1',
      callback,
      timeoutMs,
      persistAllowlist: false,
    });

  it('hands the frontend the request: its id, deadline and answers decide the verdict', async () => {
    let given: PendingRequest<'approval'> | undefined;
    const before = Date.now();
    const verdict = guardWith(async (req, _signal, pending) => {
      given = pending;
      expect(pending?.id).toBe(req.requestId);
      expect(pending?.choices).toEqual(req.choices);
      // two windows answer through the request; the frontend's own return value comes last
      expect(pending?.answer('once', 'client:first').status).toBe('accepted');
      expect(pending?.answer('deny', 'client:second').status).toBe('resolved');
      return 'deny';
    }, 60_000).check('rm -rf ./build');
    const v = await verdict;
    expect(v).toMatchObject({
      allowed: true,
      reason: 'approved',
      asked: { choice: 'once', by: 'client:first' },
    });
    expect(given!.expiresAt).toBeGreaterThanOrEqual(before + 60_000);
  });

  it('a deny for want of an approver is no_frontend, and the model is not told the user denied it', async () => {
    const v = await guardWith(async () => ({
      choice: 'deny',
      by: 'connection:c-1',
      reason: 'no_approver',
    })).check('rm -rf ./build');
    expect(v).toMatchObject({ allowed: false, reason: 'no_frontend', asked: { choice: 'deny' } });
    expect(v.allowed === false && v.message).toMatch(/no one who could approve it is here/);
    expect(v.allowed === false && v.message).not.toMatch(/user denied/);
    const person = await guardWith(async () => 'deny').check('rm -rf ./build');
    expect(person).toMatchObject({ allowed: false, reason: 'denied' });
  });

  it('one deadline: the request times out by itself, a frontend answering later changes nothing', async () => {
    let given: PendingRequest<'approval'> | undefined;
    const v = await guardWith(async (_req, signal, pending) => {
      given = pending;
      await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
      return 'once'; // after the deadline: too late
    }, 30).check('rm -rf ./build');
    expect(v).toMatchObject({ allowed: false, reason: 'timeout', asked: { choice: 'deny', by: 'timeout' } });
    expect(given!.answer('once', 'client:late').status).toBe('resolved');
  });

  it('after an interrupt the command is denied and an answer is too late', async () => {
    const ctl = new AbortController();
    let given: PendingRequest<'approval'> | undefined;
    const verdict = guardWith(async (_req, _signal, pending) => {
      given = pending;
      ctl.abort();
      return new Promise<never>(() => {});
    }).check('rm -rf ./build', ctl.signal);
    expect(await verdict).toMatchObject({
      allowed: false,
      reason: 'interrupted',
      asked: { by: 'interrupt' },
    });
    expect(given!.answer('once', 'client:a')).toMatchObject({
      status: 'resolved',
      settlement: { by: 'interrupt' },
    });
  });
});
