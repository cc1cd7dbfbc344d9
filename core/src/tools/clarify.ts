/**
 * The `clarify` tool: asks the user a question (the original's tools/clarify_tool.py).
 *
 * - Goes through `ctx.clarify`, which the frontend supplies (TUI prompt, messaging reply …).
 *   Without one (headless runs, cron) it returns an error result telling the model that no user
 *   can answer, so it should decide itself and say what it assumed.
 * - `choices` offers up to 4 answers (extra ones are dropped); the user may still type another.
 * - An aborted or failed question (interrupt, timeout, frontend gone) is an error result.
 * - `readOnly: false`, so two questions of one response are asked one after the other.
 */
import { toolError } from './args.js';
import { defineTool, nonEmpty, type ToolArgs, type Zod } from './define.js';
import type { ToolContext, ToolDefinition, ToolResult } from './types.js';

/** Most choices offered, as in the original. */
export const CLARIFY_MAX_CHOICES = 4;

/** A choice as text: `{label}` objects give their label, other values their string form. */
function choiceText(c: unknown): string {
  if (typeof c === 'string') return c;
  if (c && typeof c === 'object') return String((c as { label?: unknown }).label ?? '');
  return String(c);
}

const parameters = (z: Zod) =>
  z.object({
    question: nonEmpty(z).describe('The question to ask.'),
    choices: z
      // read leniently: `{label}` objects and numbers become text, blanks are dropped, extras cut
      .array(z.preprocess(choiceText, z.string()))
      .meta({ maxItems: CLARIFY_MAX_CHOICES })
      .describe(`Up to ${CLARIFY_MAX_CHOICES} answer choices; omit for an open question.`)
      .optional(),
  });

async function run(args: ToolArgs<typeof parameters>, ctx: ToolContext): Promise<ToolResult> {
  const question = args.question.trim();
  const offered = (args.choices ?? [])
    .map((c) => c.trim())
    .filter((c) => c !== '')
    .slice(0, CLARIFY_MAX_CHOICES);
  const choices = offered.length > 0 ? offered : undefined;
  if (!ctx.clarify) {
    return toolError(
      'clarify',
      'no user is available to answer questions in this session (it runs without a frontend). Do not ask ' +
        'again: make a reasonable choice yourself, say what you assumed, and continue.',
    );
  }
  let answer: string;
  try {
    answer = await ctx.clarify(choices ? { question, choices } : { question }, ctx.signal);
  } catch (err) {
    return toolError(
      'clarify',
      `the question was not answered (${(err as Error)?.message ?? String(err)}). Use your best judgement and continue.`,
    );
  }
  return {
    ok: true,
    content: JSON.stringify({ question, choices_offered: choices ?? null, user_response: answer }),
    summary: `answer: ${answer.slice(0, 80)}`,
  };
}

/** The `clarify` tool definition. Parameters follow the original: question, choices. */
export const clarifyTool: ToolDefinition = defineTool({
  name: 'clarify',
  description:
    'Ask the user a clarifying question when the request is ambiguous or a decision needs their input. ' +
    `Offer up to ${CLARIFY_MAX_CHOICES} choices (best first) for a multiple-choice question, or none for an ` +
    'open question. Do not use it for simple confirmations of dangerous commands (those are asked automatically).',
  parameters,
  readOnly: false,
  forSubagents: false,
  inCron: false,
  verb: ['Asked', 'Asking'],
  summarize: (args) => String(args.question ?? '').slice(0, 200),
  run,
});
