/**
 * The request checks of the Anthropic Messages API that the scripted server applies before it
 * answers `POST /v1/messages`, so a client building a request the real API refuses gets the same
 * 400 `invalid_request_error` here instead of a scripted answer:
 *
 * - text blocks (system and messages) must be non-empty and hold non-whitespace text;
 * - `tool_use.id` must match `^[a-zA-Z0-9_-]+$`;
 * - every `tool_result` answers a `tool_use` of the message right before it, and every `tool_use`
 *   of an assistant message that is followed by another message is answered in that next message;
 * - a base64 image holds at most 5 MiB of base64 text;
 * - at most 4 blocks carry `cache_control`;
 * - with thinking on, `budget_tokens` is at least 1,024 and below `max_tokens`.
 */

type Block = {
  type?: string;
  text?: unknown;
  id?: unknown;
  tool_use_id?: unknown;
  cache_control?: unknown;
  source?: { type?: string; data?: string };
};
type Message = { role?: string; content?: string | Block[] };

/** The API's tool id pattern. */
const TOOL_ID = /^[a-zA-Z0-9_-]+$/;

function blocksOf(m: Message): Block[] {
  return typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content ?? []);
}

function textProblem(where: string, b: Block): string | undefined {
  if (b.type !== 'text' || typeof b.text !== 'string') return undefined;
  if (b.text === '') return `${where}: text content blocks must be non-empty`;
  if (b.text.trim() === '') return `${where}: text content blocks must contain non-whitespace text`;
  return undefined;
}

/**
 * What the real API would refuse in `body` (a parsed request body), as its error message, or
 * undefined when the request is acceptable.
 */
export function anthropicRequestProblem(body: unknown): string | undefined {
  const b = (body ?? {}) as {
    system?: string | Block[];
    messages?: Message[];
    max_tokens?: number;
    thinking?: { type?: string; budget_tokens?: number };
  };
  const messages = b.messages ?? [];
  let cached = 0;
  const system = typeof b.system === 'string' ? [] : (b.system ?? []);
  for (const s of system) {
    const p = textProblem('system', s);
    if (p) return p;
    if (s.cache_control) cached++;
  }
  for (const [i, m] of messages.entries()) {
    const blocks = blocksOf(m);
    const prev = i > 0 ? blocksOf(messages[i - 1]!) : [];
    const prevUses = new Set(prev.filter((x) => x.type === 'tool_use').map((x) => String(x.id)));
    for (const [j, x] of blocks.entries()) {
      const where = `messages.${i}.content.${j}`;
      const p = textProblem('messages', x);
      if (p) return p;
      if (x.cache_control) cached++;
      const b64 = x.type === 'image' && x.source?.type === 'base64' ? (x.source.data ?? '').length : 0;
      if (b64 > 5 * 1024 * 1024)
        return `${where}.image.source.base64: image exceeds 5 MB maximum: ${b64} bytes > 5242880 bytes`;
      if (x.type === 'tool_use' && !TOOL_ID.test(String(x.id)))
        return `${where}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`;
      if (x.type === 'tool_result' && !prevUses.has(String(x.tool_use_id)))
        return (
          `${where}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(x.tool_use_id)}. ` +
          'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.'
        );
    }
    const next = messages[i + 1];
    if (m.role === 'assistant' && next) {
      const answered = new Set(
        blocksOf(next)
          .filter((x) => x.type === 'tool_result')
          .map((x) => String(x.tool_use_id)),
      );
      const open = blocks.filter((x) => x.type === 'tool_use' && !answered.has(String(x.id)));
      if (open.length)
        return (
          `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ` +
          `${open.map((x) => String(x.id)).join(', ')}. Each \`tool_use\` block must have a corresponding ` +
          '`tool_result` block in the next message.'
        );
    }
  }
  if (cached > 4) return `A maximum of 4 blocks with cache_control may be provided. Found ${cached}.`;
  const t = b.thinking;
  if (t?.type === 'enabled') {
    const budget = t.budget_tokens ?? 0;
    if (budget < 1024) return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
    if ((b.max_tokens ?? 0) <= budget) return '`max_tokens` must be greater than `thinking.budget_tokens`.';
  }
  return undefined;
}
