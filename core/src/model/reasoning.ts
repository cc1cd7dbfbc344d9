/**
 * Reasoning effort (`model.reasoning_effort`, `/reasoning`): how much a model may think before it
 * answers, mapped to each API's own parameter.
 *
 * | effort | OpenAI Chat (`openai`)                  | OpenRouter                 | Anthropic Messages                            |
 * |--------|-----------------------------------------|----------------------------|-----------------------------------------------|
 * | unset  | nothing sent (the provider's default)   | nothing sent               | nothing sent (no thinking)                    |
 * | none   | `reasoning_effort: "minimal"` (gpt-5*); o-series cannot turn it off: nothing sent, one notice | `reasoning: {enabled: false}` | nothing sent (no thinking) |
 * | low    | `reasoning_effort: "low"`               | `reasoning: {effort: "low"}` | `thinking: {type: "enabled", budget_tokens: 2048}`  |
 * | medium | `reasoning_effort: "medium"`            | `reasoning: {effort: "medium"}` | `budget_tokens: 8192`                      |
 * | high   | `reasoning_effort: "high"`              | `reasoning: {effort: "high"}` | `budget_tokens: 24576`                       |
 *
 * Where the provider or model takes no such parameter (`reasoningSupported` says no: a `custom`
 * endpoint, an OpenAI model without reasoning such as gpt-4o), the request goes without it and
 * the client tells the user once (`StreamHandlers.onNotice`), not at every turn.
 */
import type { ProviderWire } from './providers.js';

/** A reasoning effort level of `model.reasoning_effort` and `/reasoning`. */
export type ReasoningEffort = 'none' | 'low' | 'medium' | 'high';

/** The levels, in increasing order. */
export const REASONING_EFFORTS: readonly ReasoningEffort[] = ['none', 'low', 'medium', 'high'];

/** True when `s` names a level. */
export function isReasoningEffort(s: string): s is ReasoningEffort {
  return (REASONING_EFFORTS as readonly string[]).includes(s);
}

/** Anthropic thinking budget per level, tokens (`thinking.budget_tokens`; the API's minimum is 1024). */
export const ANTHROPIC_THINKING_BUDGETS: Record<Exclude<ReasoningEffort, 'none'>, number> = {
  low: 2_048,
  medium: 8_192,
  high: 24_576,
};

/** What a target is, for the reasoning decision. */
export interface ReasoningTarget {
  provider: string;
  wire: ProviderWire;
  /**
   * What the provider preset says it supports (the preset table's `supports`, carried on the
   * target); `supports.reasoning`, when set, wins over the rules of `reasoningSupported`.
   */
  supports?: { reasoning?: boolean };
}

const OPENAI_REASONING = /^(o\d|gpt-5)/i;
const OLD_CLAUDE = /claude-(2|instant|3-(opus|sonnet|haiku|5))/i;

/**
 * Whether `model` on `target` takes a reasoning-effort parameter. The one place that decides it:
 * the preset flag when given; else Anthropic Messages yes (except Claude 3.5 and older), OpenRouter
 * yes (it normalizes the parameter and ignores it for models without reasoning), OpenAI for the
 * o-series and gpt-5 family, every other provider no.
 */
export function reasoningSupported(target: ReasoningTarget, model: string): boolean {
  const flag = target.supports?.reasoning;
  if (flag !== undefined) return flag;
  if (target.wire === 'anthropic-messages') return !OLD_CLAUDE.test(model);
  if (target.provider === 'openrouter') return true;
  if (target.provider === 'openai') return OPENAI_REASONING.test(model.replace(/^openai\//, ''));
  return false;
}

/** The body fields of an OpenAI-compatible request for `effort`, and a notice when it was dropped. */
export interface OpenAIReasoningParams {
  params: Record<string, unknown>;
  /** Set when the effort could not be sent: tell the user once. */
  notice?: string;
}

/** The message of the one-time notice for a provider/model without the parameter. */
export function unsupportedNotice(effort: ReasoningEffort, provider: string, model: string): string {
  return (
    `Reasoning effort "${effort}" is not supported by ${provider} (model ${model}); ` +
    'requests go without it (model.reasoning_effort, /reasoning).'
  );
}

/**
 * The reasoning fields for an OpenAI Chat Completions body (the table in this file's header).
 * @param effort undefined: nothing is sent (the provider's default).
 */
export function openaiReasoningParams(
  effort: ReasoningEffort | undefined,
  target: ReasoningTarget,
  model: string,
): OpenAIReasoningParams {
  if (effort === undefined) return { params: {} };
  if (!reasoningSupported(target, model)) {
    return { params: {}, notice: unsupportedNotice(effort, target.provider, model) };
  }
  if (target.provider === 'openrouter') {
    return { params: { reasoning: effort === 'none' ? { enabled: false } : { effort } } };
  }
  if (effort === 'none') {
    if (/^gpt-5/i.test(model.replace(/^openai\//, ''))) return { params: { reasoning_effort: 'minimal' } };
    return {
      params: {},
      notice: `${target.provider} (model ${model}) cannot turn reasoning off; it uses its default effort.`,
    };
  }
  return { params: { reasoning_effort: effort } };
}

/**
 * The Anthropic thinking budget for `effort`, tokens, or undefined for no thinking (unset, `none`,
 * or a model without extended thinking — then `notice` says so).
 */
export function anthropicThinkingBudget(
  effort: ReasoningEffort | undefined,
  target: ReasoningTarget,
  model: string,
): { budget?: number; notice?: string } {
  if (effort === undefined || effort === 'none') return {};
  if (!reasoningSupported(target, model))
    return { notice: unsupportedNotice(effort, target.provider, model) };
  return { budget: ANTHROPIC_THINKING_BUDGETS[effort] };
}

/**
 * The argument of `/reasoning`: `''` → show (undefined), `default` → back to the profile's
 * `model.reasoning_effort` (null), a level → that level; anything else → `{error}`.
 */
export function parseReasoningArg(arg: string): ReasoningEffort | null | undefined | { error: string } {
  const level = arg.trim().toLowerCase();
  if (level === '') return undefined;
  if (level === 'default') return null;
  if (isReasoningEffort(level)) return level;
  return { error: `Unknown /reasoning level "${arg.trim()}": use none, low, medium, high or default.` };
}

/** The answer of `/reasoning`: the effort in effect, whose it is, and when a change applies. */
export function reasoningEffortText(
  effort: ReasoningEffort | undefined,
  own: boolean,
  changed: boolean,
): string {
  const what = effort ?? "the provider's default";
  const whose = own ? 'this session' : 'model.reasoning_effort of the profile';
  return changed
    ? `Reasoning effort: ${what} (${whose}), from the next turn.`
    : `Reasoning effort: ${what} (${whose}). /reasoning none|low|medium|high|default changes it.`;
}
