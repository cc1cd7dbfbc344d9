/** Completion of slash commands in the composer. */
import { COMMANDS, type SlashCommand } from './table.js';

/**
 * Commands matching what is typed, best first: names starting with the typed word, then names
 * containing it. Empty when the input is not a command word being typed (no `/`, or a space
 * already follows the word).
 */
export function completeCommands(
  input: string,
  commands: readonly SlashCommand[] = COMMANDS,
): SlashCommand[] {
  const m = /^\/([\w-]*)$/.exec(input);
  if (!m) return [];
  const word = m[1]!.toLowerCase();
  const names = (c: SlashCommand): string[] => [c.name, ...(c.aliases ?? [])];
  const prefix = commands.filter((c) => names(c).some((n) => n.startsWith(word)));
  const inner = commands.filter(
    (c) => !prefix.includes(c) && word.length > 0 && names(c).some((n) => n.includes(word)),
  );
  return [...prefix, ...inner];
}

/** The composer text after accepting a completion: the command, and a space when it takes arguments. */
export function applyCompletion(command: SlashCommand): string {
  return `/${command.name}${command.args ? ' ' : ''}`;
}
