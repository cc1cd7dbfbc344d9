/**
 * Slash commands in an editor: the commands the daemon answers (`slash.exec`: `/title`, `/usage`,
 * `/compact`, `/tools` …) are announced as ACP available commands, and a prompt that is one of
 * them runs it instead of reaching the model. Saved skills' commands are left out (their text
 * goes to the model as a prompt).
 */
import type { AvailableCommand } from '@agentclientprotocol/sdk';
import { commandsFor, findSlashCommand } from '@hermes/core/constants';

/** The daemon's commands as ACP available commands, in the table's order. */
export function availableCommands(): AvailableCommand[] {
  return commandsFor('daemon')
    .filter((c) => c.daemon?.runner !== 'skill')
    .map((c) => ({
      name: c.name,
      description: c.daemon?.help?.description ?? c.tui?.description ?? c.name,
      ...(c.tui?.args ? { input: { hint: c.tui.args } } : {}),
    }));
}

/**
 * The command line a prompt is — its whole text, one line, `/name` or `/name ARGS` naming a
 * daemon command (or an alias) — or null when it is a prompt for the model.
 */
export function daemonCommandLine(text: string): string | null {
  const line = text.trim();
  if (line.includes('\n')) return null;
  const m = /^\/([a-z][\w-]*)(?:\s|$)/i.exec(line);
  if (!m) return null;
  const def = findSlashCommand('daemon', m[1]!);
  return def && def.daemon?.runner !== 'skill' ? line : null;
}
