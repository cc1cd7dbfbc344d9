/**
 * The contract between the `delegate_task` tool (delegate.ts) and the agent that runs it
 * (`../agent/subagent.ts`). The tool validates the call and picks each
 * task's tools; the agent side builds and runs the sub-agents. A handler reaches it through
 * `ToolContext.delegate`, which the agent loop sets for each tool call when its session allows
 * delegation (never inside a sub-agent).
 */

/** One task for a sub-agent, as resolved by `delegate_task`. */
export interface SubagentTask {
  /** 0-based position in the call's `tasks` (0 for a single `goal`). */
  index: number;
  /** What the sub-agent must achieve; its first (and only) user message. */
  goal: string;
  /** Background the sub-agent needs (it sees nothing of the parent's conversation). */
  context?: string;
  /** Names of the tools it gets: a subset of `DelegateCapability.availableTools`. */
  tools: string[];
  /** Its iteration budget: model calls before it must stop (≤ `delegation.max_iterations`). */
  maxIterations: number;
  /** Model id for it; default `delegation.model`, else the parent's model. */
  model?: string;
}

/** How one sub-agent ended. */
export interface SubagentOutcome {
  /** Its id: the child session id where sessions are stored. */
  subagentId: string;
  /** `complete`, `interrupted`, `error` or `max_turns` (budget used up). */
  status: string;
  /** Its final answer (partial when interrupted); the only text returned to the parent's model. */
  summary: string;
  error?: string;
  durationMs: number;
}

/** What the running agent offers `delegate_task`. */
export interface DelegateCapability {
  /** Tools a sub-agent may be given: the parent's, minus those marked `forSubagents: false`. */
  readonly availableTools: readonly string[];
  /** Tasks one call may run (`delegation.max_parallel`); they all run at once. */
  readonly maxParallel: number;
  /** Upper bound and default of a sub-agent's iteration budget (`delegation.max_iterations`). */
  readonly maxIterations: number;
  /**
   * Runs one sub-agent to its final answer, reporting `subagent.*` events to the parent's event
   * stream. Never rejects: failures come back as status `error`. `signal` (the tool call's)
   * interrupts it.
   */
  run(task: SubagentTask, signal: AbortSignal): Promise<SubagentOutcome>;
}
