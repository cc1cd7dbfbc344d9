/**
 * Edits shown before they are written (`approvals.edits: ask`): `write_file` and `patch` compute
 * the new content first, then ask through the approval machinery with a unified diff of old vs
 * new (the `diff` package, loaded only when asked), and write only when approved. Denied, timed
 * out, interrupted or nobody to ask: nothing is written and the tool result says so.
 */
import { capHeadTail } from '../util/head-tail.js';
import { toolError } from './args.js';
import type { ToolContext, ToolResult } from './types.js';

/** Cap on the diff shown for approval, chars (head and tail kept). */
export const EDIT_DIFF_MAX_CHARS = 20_000;

/**
 * A unified diff of `before` → `after` for the file shown as `shown` (`a/…`, `b/…` headers,
 * three lines of context), capped at `EDIT_DIFF_MAX_CHARS`. A new file diffs against empty text.
 */
export async function editDiff(shown: string, before: string, after: string): Promise<string> {
  const { createTwoFilesPatch } = await import('diff');
  // the line diff is quadratic in the worst case (a whole large file rewritten): past a budget it
  // gives up and the change is shown as every old line removed, every new line added
  const patch = createTwoFilesPatch(`a/${shown}`, `b/${shown}`, before, after, undefined, undefined, {
    context: 3,
    maxEditLength: EDIT_DIFF_MAX_EDITS,
    timeout: EDIT_DIFF_TIMEOUT_MS,
  });
  // the package's first line is a separator of its own (`===…`): the diff starts at `---`
  const body =
    patch === undefined
      ? wholeFileDiff(shown, before, after)
      : patch.slice(Math.max(0, patch.indexOf('--- ')));
  return capHeadTail(body, EDIT_DIFF_MAX_CHARS).text;
}

/** Line edits the diff may need before it gives up (a whole-file replacement is shown instead). */
export const EDIT_DIFF_MAX_EDITS = 2_000;
/** Time the diff may take before it gives up, ms. */
export const EDIT_DIFF_TIMEOUT_MS = 250;

/** The change as one hunk: every old line removed, every new line added. */
function wholeFileDiff(shown: string, before: string, after: string): string {
  const lines = (t: string): string[] => (t === '' ? [] : t.replace(/\n$/, '').split('\n'));
  const a = lines(before);
  const b = lines(after);
  return [
    `--- a/${shown}`,
    `+++ b/${shown}`,
    `@@ -${a.length ? 1 : 0},${a.length} +${b.length ? 1 : 0},${b.length} @@ (whole file replaced)`,
    ...a.map((l) => `-${l}`),
    ...b.map((l) => `+${l}`),
  ].join('\n');
}

/**
 * Asks for an edit when the context asks for edits (`ctx.checkEdit`), showing its diff.
 * @param tool the tool's name, for the request and the refusal.
 * @returns undefined when the edit may be written; the tool's refusal result otherwise.
 */
export async function confirmEdit(
  ctx: ToolContext,
  tool: string,
  shown: string,
  before: string,
  after: string,
): Promise<ToolResult | undefined> {
  if (!ctx.checkEdit) return undefined;
  let diff: string;
  try {
    diff = await editDiff(shown, before, after);
  } catch (err) {
    return toolError(
      tool,
      `cannot show the change of ${shown} for approval (${(err as Error).message}); not written`,
    );
  }
  const verdict = await ctx.checkEdit(tool, { path: shown, diff });
  if (verdict.allowed) return undefined;
  return toolError(tool, `${shown} was not written: ${verdict.message}`);
}
