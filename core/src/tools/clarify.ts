/**
 * The `clarify` tool: asks the user a question (issue 2 "Tools"; the original's tools/clarify_tool.py).
 *
 * - Goes through `ctx.clarify`, which the frontend supplies (TUI prompt, messaging reply …).
 *   Without one (headless runs, cron) it returns an error result telling the model that no user
 *   can answer, so it should decide itself and say what it assumed.
 * - `choices` offers up to 4 answers (extra ones are dropped); the user may still type another.
 * - An aborted or failed question (interrupt, timeout, frontend gone) is an error result.
 * - `readOnly: false`, so two questions of one response are asked one after the other.
 */
import { stringArg, toolError } from './args.js';
import type { ToolContext, ToolDefinition, ToolResult } from './types.js';

/** Most choices offered, as in the original. */
export const CLARIFY_MAX_CHOICES = 4;

function parseChoices(raw: unknown): string[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) throw new Error('argument "choices" must be an array of strings');
  const choices = raw
    .map((c) =>
      typeof c === 'string'
        ? c
        : c && typeof c === 'object'
          ? String((c as { label?: unknown }).label ?? '')
          : String(c),
    )
    .map((c) => c.trim())
    .filter((c) => c !== '')
    .slice(0, CLARIFY_MAX_CHOICES);
  return choices.length > 0 ? choices : undefined;
}

async function handler(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  const question = (stringArg(args, 'question') ?? '').trim();
  if (question === '') return toolError('clarify', 'argument "question" must not be empty');
  let choices: string[] | undefined;
  try {
    choices = parseChoices(args.choices);
  } catch (err) {
    return toolError('clarify', (err as Error).message);
  }
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
export const clarifyTool: ToolDefinition = {
  name: 'clarify',
  description:
    'Ask the user a clarifying question when the request is ambiguous or a decision needs their input. ' +
    `Offer up to ${CLARIFY_MAX_CHOICES} choices (best first) for a multiple-choice question, or none for an ` +
    'open question. Do not use it for simple confirmations of dangerous commands (those are asked automatically).',
  parameters: {
    type: 'object',
    properties: {
      question: { type: 'string', description: 'The question to ask.' },
      choices: {
        type: 'array',
        items: { type: 'string' },
        maxItems: CLARIFY_MAX_CHOICES,
        description: `Up to ${CLARIFY_MAX_CHOICES} answer choices; omit for an open question.`,
      },
    },
    required: ['question'],
  },
  readOnly: false,
  summarize: (args) => String(args.question ?? '').slice(0, 200),
  handler,
};
