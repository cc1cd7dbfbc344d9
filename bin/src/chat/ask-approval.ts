/** Asking the user on the terminal to approve a dangerous command or a script (`hermes chat`). */
import { createInterface, type Interface } from 'node:readline/promises';
import { APPROVAL_CHOICES, EXECUTE_CODE_KEY, type ApprovalChoice } from '@hermes/core/approvals/types';

/** What the terminal prompt needs of an approval request (in process or `approval.request`). */
export interface TerminalApprovalRequest {
  /** The command, or for a script the request text (`execute_code (<language>):` and its head). */
  command: string;
  /** Why it is flagged. */
  description: string;
  /** What the user may answer; all four when absent. Only these are offered and accepted. */
  choices?: readonly ApprovalChoice[];
  /** The matched pattern keys (in process only); `execute-code` marks a script. */
  patternKeys?: readonly string[];
}

/** Where the prompt is written and read. */
export interface TerminalApprovalIo {
  /** An open readline to reuse; one on stdin/stderr is opened and closed otherwise. */
  rl?: Interface;
  /** Where the request is shown; stderr by default. */
  out?: NodeJS.WritableStream;
}

const LABELS: Record<ApprovalChoice, string> = {
  once: '[o]nce',
  session: '[s]ession',
  always: '[a]lways',
  deny: '[d]eny',
};

/** The request header of a script (guard.ts `scriptRequestText`), for requests without keys. */
const SCRIPT_HEADER = /^execute_code \(([^)\n]+)\):\n/;

/** True when the request asks to run an `execute_code` script rather than a shell command. */
function isScript(req: TerminalApprovalRequest): boolean {
  return req.patternKeys ? req.patternKeys.includes(EXECUTE_CODE_KEY) : SCRIPT_HEADER.test(req.command);
}

/**
 * Shows what is to be approved and why on `io.out` (stderr) and reads the answer. Offers only
 * `req.choices` (all four when absent); an answer naming anything else — a choice that was not
 * offered, or unknown text — is `deny` (fail closed).
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
  const own = io.rl ? undefined : createInterface({ input: process.stdin, output: out });
  try {
    if (isScript(req)) {
      // the description already says what a script may do ("run a python script (execute_code): …")
      const body = req.command.replace(SCRIPT_HEADER, '');
      out.write(`\n⚠ Script approval — the agent wants to ${req.description}:\n${indent(body)}\n`);
    } else {
      out.write(
        `\n⚠ The agent wants to run a command flagged as dangerous (${req.description}):\n${indent(req.command)}\n`,
      );
    }
    const options = [...offered.filter((c) => c !== 'deny'), 'deny' as const].map((c) => LABELS[c]);
    const answer = (await (io.rl ?? own)!.question(`Allow? ${options.join(' / ')}: `)).trim().toLowerCase();
    const choice = offered.find((c) => c === answer || c[0] === answer);
    return choice ?? 'deny';
  } finally {
    own?.close();
  }
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
