/**
 * One approval question put to the frontend's callback, settled by its `PendingRequest` (the one
 * deadline, the interrupt, the answer rule): the guard's step 4 (guard.ts).
 */
import { PendingRequest } from './pending.js';
import type { ApprovalCallback, ApprovalChoice, ApprovalRequest } from './types.js';

/**
 * Asks through the callback and resolves with the request's settlement: the choice, or the reason
 * no usable answer came. The request (pending.ts) owns the one deadline (`timeoutMs`), the
 * interrupt (`signal`) and the answer rule: a choice outside `req.choices` (e.g. `session` after a
 * smart DENY offered only `once`/`deny`) and a callback that throws are a `deny`.
 */
export async function ask(
  callback: ApprovalCallback,
  req: ApprovalRequest,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<{ answer: ApprovalChoice | 'timeout' | 'interrupted'; by: string; noApprover: boolean }> {
  const pending = new PendingRequest({
    kind: 'approval',
    id: req.requestId,
    choices: req.choices,
    timeoutMs,
    ...(signal ? { signal } : {}),
  });
  Promise.resolve()
    .then(() => callback(req, pending.signal, pending))
    .then(
      (a) => {
        const choice = typeof a === 'string' ? a : a?.choice;
        const by = typeof a === 'object' && typeof a?.by === 'string' ? a.by : 'user';
        const reason = typeof a === 'object' ? a?.reason : undefined;
        pending.answer(choice, by, reason); // a no-op when it was settled first (answered elsewhere, timeout)
      },
      (err: unknown) => pending.refuse('error', `the frontend failed: ${(err as Error)?.message ?? err}`),
    );
  const s = await pending.settled;
  if (s.how === 'timeout') return { answer: 'timeout', by: s.by, noApprover: false };
  if (s.how === 'withdrawn') return { answer: 'interrupted', by: s.by, noApprover: false };
  return { answer: s.value, by: s.by, noApprover: s.reason === 'no_approver' };
}
