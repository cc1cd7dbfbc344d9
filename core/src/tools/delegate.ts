/**
 * `delegate_task` (behaviour of hermes-agent's `tools/delegate_tool.py`):
 * runs sub-agents, each with its own goal, fresh conversation, tool subset and iteration budget,
 * several at once; only their final answers come back to the calling model. The sub-agents are
 * built and run by the agent through `ctx.delegate` (delegate-types.ts, `../agent/subagent.ts`).
 *
 * Arguments: either `goal` (+ `context`, `toolsets`/`tools`, `max_iterations`, `model`) for one
 * task, or `tasks: [{goal, context?, toolsets?, tools?, max_iterations?, model?}]` for several in
 * parallel (top-level fields are defaults for every task). At most `delegation.max_parallel`
 * tasks per call. Sub-agents never get the tools marked `forSubagents: false` (no recursive
 * delegation, no questions to the user, no writes to the shared memory, no scripted tool calls).
 *
 * Result: JSON `{results: [{task_index, goal, status, summary, error?, duration_seconds}]}`.
 */
import { allowedForSubagents, toolsetTable, type ToolsetTable } from './catalog.js';
import { defineTool, TOOLSET_NAMES, type Zod } from './define.js';
import type { SubagentTask } from './delegate-types.js';
import { builtinTools } from './registry.js';
import type { ToolDefinition } from './types.js';

/** Names of the tools among `tools` that sub-agents never get (`forSubagents: false`). */
export function subagentBlockedNames(tools: readonly ToolDefinition[]): ReadonlySet<string> {
  return new Set(tools.filter((t) => !allowedForSubagents(t)).map((t) => t.name));
}

const GOAL = 'What the sub-agent must achieve. Self-contained: it knows nothing of this conversation.';

/** The fields of one task, as zod schemas (`goal` optional: top-level fields are defaults). */
function taskFields(z: Zod) {
  return {
    goal: z.string().describe(GOAL).optional(),
    context: z
      .string()
      .describe(
        'Everything it needs to know: file paths, error messages, constraints, the language to answer in.',
      )
      .optional(),
    toolsets: z
      .array(z.string())
      .describe(
        `Toolsets it gets: ${TOOLSET_NAMES.join(', ')}, or mcp-<server>. Default: all of your tools it may use.`,
      )
      .optional(),
    tools: z.array(z.string()).describe('Exact tool names it gets (instead of toolsets).').optional(),
    max_iterations: z
      .int()
      .describe('Model calls it may make before it must stop (capped by delegation.max_iterations).')
      .optional(),
    model: z.string().describe('Model id for it (default: delegation.model or yours).').optional(),
  };
}

const parameters = (z: Zod) =>
  z.object({
    ...taskFields(z),
    tasks: z
      .array(z.object({ ...taskFields(z), goal: z.string().describe(GOAL) }))
      .describe(
        'Several tasks to run in parallel (at most delegation.max_parallel, default 3); top-level fields are defaults.',
      )
      .optional(),
  });

/** The fields of one task (every one optional here: `resolveTasks` names a missing goal). */
export interface DelegateTaskFields {
  goal?: string | undefined;
  context?: string | undefined;
  toolsets?: string[] | undefined;
  tools?: string[] | undefined;
  max_iterations?: number | undefined;
  model?: string | undefined;
}

/** The arguments of a `delegate_task` call: one task's fields, or `tasks` with defaults. */
export interface DelegateArgs extends DelegateTaskFields {
  tasks?: DelegateTaskFields[] | undefined;
}

/** The tool. Needs `ctx.delegate`; without it (inside a sub-agent, headless contexts) it errors. */
export const delegateTool: ToolDefinition = defineTool({
  name: 'delegate_task',
  description:
    'Delegate work to sub-agents that run in their own fresh context with their own tools, and get back ' +
    'only their final reports (their intermediate steps never enter your context). Give either `goal` ' +
    '(one task) or `tasks` (several, run in parallel). Use it for self-contained subtasks that need ' +
    'reasoning or would flood your context (research, investigation, review, independent edits). ' +
    'Sub-agents cannot ask the user anything, use memory or delegate further, and remember nothing of ' +
    'this conversation: put every needed fact in `context`. Their reports are self-assessments: verify ' +
    'important claims (read the file, run the check) before relying on them. Interrupting you stops them.',
  parameters,
  readOnly: false,
  forSubagents: false,
  verb: ['Delegated', 'Delegating'],
  summarize: (args) => {
    const tasks = Array.isArray(args.tasks) ? args.tasks.length : 0;
    return tasks > 0 ? `${tasks} tasks` : String(args.goal ?? '').slice(0, 80);
  },
  async run(args, ctx) {
    const cap = ctx.delegate;
    if (!cap) {
      return {
        ok: false,
        content: 'delegate_task is not available here (sub-agents cannot delegate). Do the work yourself.',
        summary: 'unavailable',
      };
    }
    const tasks = resolveTasks(args, cap.availableTools, cap.maxIterations);
    if (tasks.length > cap.maxParallel) {
      throw new Error(
        `${tasks.length} tasks given, at most ${cap.maxParallel} per call (delegation.max_parallel); split them over several calls`,
      );
    }
    ctx.progress(`${tasks.length} sub-agent${tasks.length > 1 ? 's' : ''} running`);
    const outcomes = await Promise.all(tasks.map((t) => cap.run(t, ctx.signal)));
    let done = 0;
    const results = outcomes.map((o, i) => {
      if (o.status === 'complete') done++;
      ctx.progress(`sub-agent ${i + 1}/${tasks.length}: ${o.status}`);
      return {
        task_index: i,
        goal: tasks[i]!.goal,
        status: o.status,
        summary: o.summary,
        ...(o.error ? { error: o.error } : {}),
        duration_seconds: Math.round(o.durationMs / 100) / 10,
      };
    });
    return {
      ok: done === tasks.length,
      content: JSON.stringify({ results }, null, 2),
      summary: `${done}/${tasks.length} sub-agent${tasks.length > 1 ? 's' : ''} completed`,
    };
  },
});

/**
 * The tools a task gets: `tools` by name, else the union of `toolsets`, else all available.
 * @throws Error naming an unknown or unavailable tool/toolset, and what is available.
 */
export function selectTools(
  available: readonly string[],
  toolsets: readonly string[] | undefined,
  tools: readonly string[] | undefined,
  sets: ToolsetTable = toolsetTable(builtinTools()),
  blocked: ReadonlySet<string> = subagentBlockedNames(builtinTools()),
): string[] {
  const offer = `available: ${available.join(', ') || '(none)'}`;
  if (tools?.length) {
    for (const name of tools) {
      if (blocked.has(name)) throw new Error(`sub-agents cannot use "${name}"`);
      if (!available.includes(name)) throw new Error(`no tool "${name}" to give a sub-agent (${offer})`);
    }
    return [...new Set(tools)];
  }
  if (!toolsets?.length) return [...available];
  const picked = new Set<string>();
  for (const set of toolsets) {
    const server = /^mcp[-_](.+)$/.exec(set)?.[1];
    const members = server
      ? available.filter((n) => n.startsWith(`mcp_${server}_`))
      : (sets as Readonly<Record<string, readonly string[]>>)[set]?.filter((n) => available.includes(n));
    if (!members) {
      throw new Error(`unknown toolset "${set}" (toolsets: ${Object.keys(sets).join(', ')}, mcp-<server>)`);
    }
    if (members.length === 0) throw new Error(`toolset "${set}" has no tools available here (${offer})`);
    for (const n of members) picked.add(n);
  }
  return [...picked];
}

/**
 * Turns the call's arguments into tasks (top-level fields are defaults for `tasks` entries).
 * @throws Error for a missing goal, bad field types, or tools that cannot be given.
 */
export function resolveTasks(
  args: DelegateArgs,
  available: readonly string[],
  maxIterations: number,
): SubagentTask[] {
  if (args.tasks && args.tasks.length === 0)
    throw new Error('"tasks" must be a non-empty array of {goal, ...}');
  const entries: DelegateTaskFields[] = args.tasks ?? [{}];
  return entries.map((entry, index) => {
    const where = args.tasks ? `tasks[${index}].` : '';
    const goal = (args.tasks ? entry.goal : args.goal)?.trim();
    if (!goal) throw new Error(`"${where}goal" is required: say what the sub-agent must achieve`);
    const context = entry.context || args.context || undefined;
    const model = entry.model || args.model || undefined;
    const asked = entry.max_iterations ?? args.max_iterations;
    if (asked !== undefined && asked < 1)
      throw new Error(`"${where}max_iterations" must be a positive integer`);
    const budget = asked === undefined ? maxIterations : Math.min(asked, maxIterations);
    // a task naming its own tools ignores the top-level choice entirely
    const src = entry.toolsets !== undefined || entry.tools !== undefined ? entry : args;
    const tools = selectTools(available, src.toolsets, src.tools);
    return {
      index,
      goal,
      ...(context ? { context } : {}),
      tools,
      maxIterations: budget,
      ...(model ? { model } : {}),
    };
  });
}
