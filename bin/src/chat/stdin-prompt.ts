/**
 * The prompt of `hermes chat -q`: the `-q` text plus whatever was piped on stdin, as Claude Code's
 * `-p` does (`cat notes.txt | hermes chat -q "summarize"`). With no `-q` text, stdin alone is the
 * prompt (`echo "question" | hermes chat -q`). stdin is read only when it is not a terminal; to run
 * a one-shot from a script whose stdin stays open without data, redirect it: `< /dev/null`.
 */
import { CliExit } from '../context.js';
import { hermesCommand } from '../command-form.js';

/** Most bytes of piped stdin `hermes chat -q` takes (4 MiB); more is refused, not cut. */
export const MAX_STDIN_BYTES = 4 * 1024 * 1024;

/** The readable side of stdin as this module needs it (process.stdin, or a test stream). */
export type PromptInput = AsyncIterable<Buffer | string> & { isTTY?: boolean; destroy?: () => void };

/**
 * Reads all of `input` when it is not a terminal.
 * @returns the text with trailing newlines removed, or undefined for a terminal.
 * @throws CliExit when the input is over `maxBytes` or holds NUL bytes (binary data).
 */
export async function readPipedInput(
  input: PromptInput,
  maxBytes = MAX_STDIN_BYTES,
): Promise<string | undefined> {
  if (input.isTTY) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buf.length;
    if (size > maxBytes) {
      input.destroy?.();
      throw new CliExit(
        1,
        `stdin is larger than ${formatSize(maxBytes)}, the most hermes chat -q takes as piped input; ` +
          'pipe a smaller part, or name the file in the prompt so the agent reads it with its tools',
      );
    }
    chunks.push(buf);
  }
  const bytes = Buffer.concat(chunks);
  if (bytes.includes(0)) {
    throw new CliExit(
      1,
      'stdin holds binary data (NUL bytes), which hermes chat -q cannot send as a prompt; pipe text, ' +
        'or name the file in the prompt',
    );
  }
  return bytes.toString('utf8').replace(/\r?\n+$/, '');
}

/**
 * Combines the `-q` text and the piped text into the prompt of the turn: both present → the
 * `-q` text, a blank line, then the piped text inside `<stdin>` … `</stdin>`; one present → that one.
 * @throws CliExit when both are empty (or only whitespace), before any session is created.
 */
export function composePrompt(query: string, piped: string | undefined): string {
  const q = query.trim();
  const p = piped?.trim() ? piped : '';
  if (q && p) return `${q}\n\n<stdin>\n${p}\n</stdin>`;
  if (q) return q;
  if (p) return p;
  throw new CliExit(
    1,
    `chat -q needs a prompt: give the text after -q (${hermesCommand()} chat -q "your question"), ` +
      `or pipe it on stdin (echo "your question" | ${hermesCommand()} chat -q)`,
  );
}

/** The prompt of a `hermes chat -q` run: `-q` text and piped stdin (see `composePrompt`). */
export async function oneShotPrompt(query: string, input: PromptInput): Promise<string> {
  return composePrompt(query, await readPipedInput(input));
}

function formatSize(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
