/**
 * Asking the user on the terminal to approve a dangerous command or a script (`hermes chat`).
 *
 * Keys meant for something else never answer (the TUI card's rule, approval-arming.ts): the
 * question is asked only once the request has been shown `APPROVAL_ARM_MS` and nothing has been
 * typed for `APPROVAL_BURST_MS`. Whatever arrived before it — lines typed or pasted ahead, or
 * buffered while the turn ran, and a line begun but not finished — is typeahead: it is set aside
 * (and said so), never taken as an answer. `session` and `always` are asked again for a typed
 * `yes`, under the same rule; an empty line or any other text is a deny (fail closed), said on
 * the terminal (`“yes” is not one of o / s / a / d: denied.`).
 */
import { createInterface, type Interface } from 'node:readline/promises';
import { APPROVAL_CHOICES, EXECUTE_CODE_KEY, type ApprovalChoice } from '@hermes/core/approvals';
import { APPROVAL_ARM_MS, APPROVAL_BURST_MS } from '@hermes/core/constants';

/** What the terminal prompt needs of an approval request (in process or `approval.request`). */
export interface TerminalApprovalRequest {
  /** The command, or for a script the request text (`execute_code (<language>):` and its head). */
  command: string;
  /** Why it is flagged. */
  description: string;
  /** What the user may answer; all four when absent. Only these are offered and accepted. */
  choices?: readonly ApprovalChoice[];
  /** A file edit waiting to be written (`approvals.edits: ask`): the path and its unified diff. */
  edit?: { path: string; diff: string };
  /** The matched pattern keys (in process only); `execute-code` marks a script. */
  patternKeys?: readonly string[];
  /**
   * What `session` / `always` would store (the guard's entries, one per rule hit); shown with the
   * request and in their confirmation. Absent from an older daemon.
   */
  allows?: readonly string[];
}

/** Where the prompt is written and read. */
export interface TerminalApprovalIo {
  /** An open readline to reuse; one on stdin/stderr is opened and closed otherwise. */
  rl?: Interface;
  /** The stream `rl` reads (to see keys typed before the question); stdin for an own readline. */
  input?: NodeJS.ReadableStream;
  /** Where the request is shown; stderr by default. */
  out?: NodeJS.WritableStream;
  /** Ends the prompt with a deny (the guard's timeout, an interrupt). */
  signal?: AbortSignal;
  /** Shown this long before the question is asked, ms (default `APPROVAL_ARM_MS`). */
  armMs?: number;
  /** Quiet this long before the question is asked, ms (default `APPROVAL_BURST_MS`). */
  burstMs?: number;
}

const LABELS: Record<ApprovalChoice, string> = {
  once: '[o]nce',
  session: '[s]ession',
  always: '[a]lways',
  deny: '[d]eny',
};

/** The confirmation question of `session` / `always`: naming the entries when the request has them. */
function confirmText(choice: ApprovalChoice, allows: readonly string[] | undefined): string | undefined {
  if (choice !== 'session' && choice !== 'always') return undefined;
  if (!allows || allows.length === 0) {
    // an older daemon: its answers approved the whole class
    return choice === 'session'
      ? 'Allow commands flagged like this one for the rest of this session?'
      : 'Allow commands flagged like this one always (saved as command_allowlist in config.yaml)?';
  }
  const what = allows.join(', ');
  return choice === 'session'
    ? `Allow only ${what} for the rest of this session?`
    : `Allow only ${what} always (added to command_allowlist in config.yaml)?`;
}

/** The lines saying what `session` / `always` approve, when offered and known. */
function scopeText(req: TerminalApprovalRequest, offered: readonly ApprovalChoice[]): string {
  const names = offered.filter((c) => c === 'session' || c === 'always');
  if (!req.allows || req.allows.length === 0 || names.length === 0) return '';
  const entries = req.allows.map((e) => `    ${e}\n`).join('');
  return `  ${names.join(' / ')} would allow only:\n${entries}`;
}

/** The request header of a script (guard.ts `scriptRequestText`), for requests without keys. */
const SCRIPT_HEADER = /^execute_code \(([^)\n]+)\):\n/;

/** True when the request asks to run an `execute_code` script rather than a shell command. */
function isScript(req: TerminalApprovalRequest): boolean {
  return req.patternKeys ? req.patternKeys.includes(EXECUTE_CODE_KEY) : SCRIPT_HEADER.test(req.command);
}

/**
 * Shows what is to be approved and why on `io.out` (stderr) and reads the answer. Offers only
 * `req.choices` (all four when absent); an answer naming anything else — a choice that was not
 * offered, or unknown text — is `deny` (fail closed), and so is a closed input or `io.signal`.
 * @param req the request; a script (`execute-code` key, or the script request header) is worded
 *   as a script, a shell command as a flagged command.
 * @param io the readline and output to use.
 */
export async function askApprovalOnTerminal(
  req: TerminalApprovalRequest,
  io: TerminalApprovalIo = {},
): Promise<ApprovalChoice> {
  const out = io.out ?? process.stderr;
  const offered = APPROVAL_CHOICES.filter((c) => (req.choices ?? APPROVAL_CHOICES).includes(c));
  const own = io.rl
    ? undefined
    : createInterface({ input: process.stdin, output: out, terminal: process.stdin.isTTY === true });
  const rl = (io.rl ?? own)!;
  const lines = new LineReader(rl, io.input ?? (own ? process.stdin : undefined), io.signal);
  const ask = (question: string): Promise<string | null> =>
    askArmed(rl, lines, out, question, io.armMs ?? APPROVAL_ARM_MS, io.burstMs ?? APPROVAL_BURST_MS);
  try {
    if (req.edit) {
      out.write(`\n✎ The agent wants to write ${req.edit.path} (approvals.edits: ask):\n${req.edit.diff}\n`);
    } else if (isScript(req)) {
      // the description already says what a script may do ("run a python script (execute_code): …")
      const body = req.command.replace(SCRIPT_HEADER, '');
      out.write(`\n⚠ Script approval — the agent wants to ${req.description}:\n${indent(body)}\n`);
    } else {
      out.write(
        `\n⚠ The agent wants to run a command flagged as dangerous (${req.description}):\n${indent(req.command)}\n`,
      );
    }
    out.write(scopeText(req, offered));
    const options = [...offered.filter((c) => c !== 'deny'), 'deny' as const].map((c) => LABELS[c]);
    for (;;) {
      const answer = await ask(`Allow? ${options.join(' / ')}: `);
      if (answer === null) return 'deny';
      const a = answer.trim().toLowerCase();
      const picked = offered.find((c) => c === a || c[0] === a);
      if (!picked) {
        // fail closed, and say so: `y` or `yes` reads like an approval to a person
        out.write(
          a === ''
            ? '  No answer: denied.\n'
            : `  “${answer.trim()}” is not one of ${offered.map((c) => c[0]).join(' / ')}: denied.\n`,
        );
        return 'deny';
      }
      const choice = picked;
      const confirm = confirmText(choice, req.allows);
      if (!confirm) return choice;
      out.write(`${confirm}\n`);
      const yes = await ask('Type yes to confirm: ');
      if (yes === null) return 'deny';
      if (yes.trim().toLowerCase() === 'yes') return choice;
      out.write('  Not confirmed.\n');
    }
  } finally {
    lines.close();
    own?.close();
  }
}

/**
 * Asks `question` once the request has been shown `armMs` and the input has been quiet for
 * `burstMs`; lines that arrived before, and a line begun before, are set aside.
 * @returns the answer line, or null when the input closed or the signal fired.
 */
async function askArmed(
  rl: Interface,
  lines: LineReader,
  out: NodeJS.WritableStream,
  question: string,
  armMs: number,
  burstMs: number,
): Promise<string | null> {
  const shownAt = Date.now();
  for (;;) {
    const wait = Math.max(shownAt + armMs, lines.lastInputAt + burstMs) - Date.now();
    if (wait <= 0) break;
    if (!(await lines.sleep(wait))) return null;
  }
  const ahead = lines.drain();
  if (rl.line) {
    ahead.push(rl.line);
    rl.setPrompt(''); // the line is redrawn as it is cleared: without the last prompt
    rl.write(null, { ctrl: true, name: 'e' });
    rl.write(null, { ctrl: true, name: 'u' });
  }
  for (const l of ahead) out.write(`  (set aside, typed before the question: “${l}”)\n`);
  rl.setPrompt(question);
  rl.prompt();
  const answer = await lines.next();
  if (answer === null) out.write('\n'); // ended unanswered (Ctrl+C, closed input): what follows starts a line
  return answer;
}

/** The lines of a readline as they come, and when the input last delivered anything. */
class LineReader {
  /** When the input last delivered data (keys, a paste, buffered typeahead), ms. */
  lastInputAt = 0;
  private readonly queue: string[] = [];
  private waiter: ((line: string | null) => void) | null = null;
  private ended = false;
  private readonly wakers = new Set<() => void>();
  private readonly offs: Array<() => void> = [];

  constructor(
    rl: Interface,
    input: NodeJS.ReadableStream | undefined,
    private readonly signal: AbortSignal | undefined,
  ) {
    const onLine = (line: string): void => {
      this.lastInputAt = Date.now();
      if (this.waiter) {
        const w = this.waiter;
        this.waiter = null;
        w(line);
      } else this.queue.push(line);
    };
    const onEnd = (): void => {
      this.ended = true;
      this.waiter?.(null);
      this.waiter = null;
      for (const w of this.wakers) w();
    };
    const onData = (): void => {
      this.lastInputAt = Date.now();
    };
    rl.on('line', onLine);
    rl.on('close', onEnd);
    input?.on('data', onData);
    signal?.addEventListener('abort', onEnd);
    if (signal?.aborted) this.ended = true;
    this.offs.push(
      () => rl.off('line', onLine),
      () => rl.off('close', onEnd),
      () => input?.off('data', onData),
      () => signal?.removeEventListener('abort', onEnd),
    );
  }

  /** Lines received and not yet taken. */
  drain(): string[] {
    return this.queue.splice(0);
  }

  /** The next line, or null once the input closed or the signal fired. */
  next(): Promise<string | null> {
    if (this.queue.length > 0) return Promise.resolve(this.queue.shift()!);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => (this.waiter = resolve));
  }

  /** Waits `ms`; false when the input closed or the signal fired meanwhile. */
  sleep(ms: number): Promise<boolean> {
    if (this.ended) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(t);
        this.wakers.delete(done);
        resolve(!this.ended);
      };
      const t = setTimeout(done, ms);
      this.wakers.add(done);
    });
  }

  close(): void {
    for (const off of this.offs.splice(0)) off();
  }
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
