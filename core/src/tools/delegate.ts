/**
 * `delegate_task` (issue 8 "Delegation"; behaviour of hermes-agent's `tools/delegate_tool.py`):
 * runs sub-agents, each with its own goal, fresh conversation, tool subset and iteration budget,
 * several at once; only their final answers come back to the calling model. The sub-agents are
 * built and run by the agent through `ctx.delegate` (delegate-types.ts, `../agent/subagent.ts`).
 *
 * Arguments: either `goal` (+ `context`, `toolsets`/`tools`, `max_iterations`, `model`) for one
 * task, or `tasks: [{goal, context?, toolsets?, tools?, max_iterations?, model?}]` for several in
 * parallel (top-level fields are defaults for every task). At most `delegation.max_parallel`
 * tasks per call. Sub-agents never get `DELEGATE_BLOCKED_TOOLS`.
 *
 * Result: JSON `{results: [{task_index, goal, status, summary, error?, duration_seconds}]}`.
 */
import type { SubagentTask } from './delegate-types.js';
import type { ToolDefinition } from './types.js';

/**
 * Tools a sub-agent never gets (as in the original): no recursive delegation, no questions to the
 * user, no writes to the shared memory, no cross-platform messages, no scripted tool calls.
 */
export const DELEGATE_BLOCKED_TOOLS: ReadonlySet<string> = new Set([
  'delegate_task',
  'clarify',
  'memory',
  'send_message',
  'execute_code',
]);

/** Toolset names a call may use → tool names. `mcp-<server>` selects that MCP server's tools. */
export const DELEGATE_TOOLSETS: Readonly<Record<string, readonly string[]>> = {
  terminal: ['terminal'],
  file: ['read_file', 'write_file', 'patch', 'search_files'],
  web: ['web_search', 'web_extract'],
  todo: ['todo'],
  skills: ['skills_list', 'skill_view', 'skill_manage'],
  cronjob: ['cronjob'],
};

const stringArray = { type: 'array', items: { type: 'string' } } as const;

const TASK_FIELDS = {
  goal: {
    type: 'string',
    description: 'What the sub-agent must achieve. Self-contained: it knows nothing of this conversation.',
  },
  context: {
    type: 'string',
    description:
      'Everything it needs to know: file paths, error messages, constraints, the language to answer in.',
  },
  toolsets: {
    ...stringArray,
    description: `Toolsets it gets: ${Object.keys(DELEGATE_TOOLSETS).join(', ')}, or mcp-<server>. Default: all of your tools it may use.`,
  },
  tools: { ...stringArray, description: 'Exact tool names it gets (instead of toolsets).' },
  max_iterations: {
    type: 'integer',
    description: 'Model calls it may make before it must stop (capped by delegation.max_iterations).',
  },
  model: { type: 'string', description: 'Model id for it (default: delegation.model or yours).' },
} as const;

/** The tool. Needs `ctx.delegate`; without it (inside a sub-agent, headless contexts) it errors. */
export const delegateTool: ToolDefinition = {
  name: 'delegate_task',
  description:
    'Delegate work to sub-agents that run in their own fresh context with their own tools, and get back ' +
    'only their final reports (their intermediate steps never enter your context). Give either `goal` ' +
    '(one task) or `tasks` (several, run in parallel). Use it for self-contained subtasks that need ' +
    'reasoning or would flood your context (research, investigation, review, independent edits). ' +
    'Sub-agents cannot ask the user anything, use memory or delegate further, and remember nothing of ' +
    'this conversation: put every needed fact in `context`. Their reports are self-assessments: verify ' +
    'important claims (read the file, run the check) before relying on them. Interrupting you stops them.',
  parameters: {
    type: 'object',
    properties: {
      ...TASK_FIELDS,
      tasks: {
        type: 'array',
        description:
          'Several tasks to run in parallel (at most delegation.max_parallel, default 3); top-level fields are defaults.',
        items: { type: 'object', properties: TASK_FIELDS, required: ['goal'] },
      },
    },
  },
  readOnly: false,
  summarize: (args) => {
    const tasks = Array.isArray(args.tasks) ? args.tasks.length : 0;
    return tasks > 0 ? `${tasks} tasks` : String(args.goal ?? '').slice(0, 80);
  },
  async handler(args, ctx) {
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
};

function optionalString(v: unknown, field: string): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new Error(`"${field}" must be a string`);
  return v;
}

function optionalStrings(v: unknown, field: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
    throw new Error(`"${field}" must be an array of strings`);
  return v as string[];
}

/**
 * The tools a task gets: `tools` by name, else the union of `toolsets`, else all available.
 * @throws Error naming an unknown or unavailable tool/toolset, and what is available.
 */
export function selectTools(
  available: readonly string[],
  toolsets: string[] | undefined,
  tools: string[] | undefined,
): string[] {
  const offer = `available: ${available.join(', ') || '(none)'}`;
  if (tools?.length) {
    for (const name of tools) {
      if (DELEGATE_BLOCKED_TOOLS.has(name)) throw new Error(`sub-agents cannot use "${name}"`);
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
      : DELEGATE_TOOLSETS[set]?.filter((n) => available.includes(n));
    if (!members) {
      throw new Error(
        `unknown toolset "${set}" (toolsets: ${Object.keys(DELEGATE_TOOLSETS).join(', ')}, mcp-<server>)`,
      );
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
  args: Record<string, unknown>,
  available: readonly string[],
  maxIterations: number,
): SubagentTask[] {
  const entries: Array<Record<string, unknown>> = [];
  if (args.tasks !== undefined && args.tasks !== null) {
    if (!Array.isArray(args.tasks) || args.tasks.length === 0)
      throw new Error('"tasks" must be a non-empty array of {goal, ...}');
    for (const t of args.tasks) {
      if (!t || typeof t !== 'object' || Array.isArray(t))
        throw new Error('each entry of "tasks" must be an object');
      entries.push(t as Record<string, unknown>);
    }
  } else {
    entries.push({});
  }
  return entries.map((entry, index) => {
    const field = (name: string): unknown => entry[name] ?? args[name];
    const where = args.tasks ? `tasks[${index}].` : '';
    const goal = optionalString(entry.goal ?? (args.tasks ? undefined : args.goal), `${where}goal`)?.trim();
    if (!goal) throw new Error(`"${where}goal" is required: say what the sub-agent must achieve`);
    const context = optionalString(field('context'), `${where}context`);
    const model = optionalString(field('model'), `${where}model`);
    const asked = field('max_iterations');
    let budget = maxIterations;
    if (asked !== undefined && asked !== null) {
      const n = typeof asked === 'string' ? Number(asked) : asked;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1)
        throw new Error(`"${where}max_iterations" must be a positive integer`);
      budget = Math.min(n, maxIterations);
    }
    // a task naming its own tools ignores the top-level choice entirely
    const src = entry.toolsets != null || entry.tools != null ? entry : args;
    const tools = selectTools(
      available,
      optionalStrings(src.toolsets, `${where}toolsets`),
      optionalStrings(src.tools, `${where}tools`),
    );
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
