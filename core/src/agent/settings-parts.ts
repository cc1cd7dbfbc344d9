/**
 * The parts of an agent built from its settings, and built again when they change (`reconfigure`,
 * `restrictApprovals`): the approval guard, whose smart check's tokens count for the session, and
 * the context compressor, whose summary calls are priced and stored. Both keep what the session
 * gathered: the `session` approvals given and the number of compressions done.
 */
import type { ApprovalGuard } from '../approvals/guard.js';
import { contextWindowFor } from '../model/context-windows.js';
import type { AgentOptions } from './agent-types.js';
import type { CallCosts } from './call-costs.js';
import { ContextCompressor } from './compressor.js';
import { sessionGuard } from './guard-check.js';

/**
 * The approval guard of `opts` (guard-check.ts `sessionGuard`), keeping `sessionApprovals`. The
 * smart check's calls are priced by `costs` when the caller is known, else their tokens are added
 * to the session's usage.
 * @param sessionId the session the agent writes to at the time of the call (it changes when
 *   the context is compressed).
 */
export function guardFor(
  opts: AgentOptions,
  sessionApprovals: string[],
  costs: CallCosts,
  sessionId: () => string,
): ApprovalGuard {
  return sessionGuard(opts, sessionApprovals, (u, who) =>
    who
      ? costs.record(sessionId(), u, who)
      : opts.store.addUsage(sessionId(), u.prompt_tokens, u.completion_tokens),
  );
}

/**
 * The context compressor of `opts`: its config, model and store, the context window (given or
 * that of the model), each summary call priced by `costs`.
 * @param compressions the count of compressions done so far, kept.
 */
export function compressorFor(opts: AgentOptions, costs: CallCosts, compressions: number): ContextCompressor {
  const compressor = new ContextCompressor({
    config: opts.config,
    model: opts.model,
    store: opts.store,
    onCall: (sessionId, result) =>
      costs.record(sessionId, result.usage, {
        provider: result.provider,
        model: result.model,
        ...(result.baseURL ? { baseURL: result.baseURL } : {}),
      }),
    contextWindow:
      opts.contextWindow ?? contextWindowFor(opts.modelId ?? opts.model.defaultModel, opts.config),
  });
  compressor.compressions = compressions;
  return compressor;
}
