/**
 * The slash commands of the TUI, as data: what the composer completes and `/help` lists. They are
 * the `tui` entries of the one slash-command table (core's protocol/slash-commands.ts).
 */
import { commandsFor, type TuiCommandName } from '@hermes/core/constants';

/** One slash command. */
export interface SlashCommand {
  /** Name without the slash. */
  name: TuiCommandName;
  /** Argument hint, e.g. `ID|title`; absent when it takes none. */
  args?: string;
  /** True when the argument is required. */
  argsRequired?: boolean;
  description: string;
  /** `local`: the TUI handles it; `daemon`: sent to `slash.exec`. */
  run: 'local' | 'daemon';
  aliases?: string[];
}

/** Every command the TUI knows, in the order `/help` shows them. */
export const COMMANDS: readonly SlashCommand[] = commandsFor('tui').map((c) => {
  const tui = c.tui!;
  return {
    name: c.name as TuiCommandName,
    ...(tui.args !== undefined ? { args: tui.args } : {}),
    ...(tui.argsRequired ? { argsRequired: true } : {}),
    description: tui.description,
    run: tui.runs === 'tui' ? 'local' : 'daemon',
    ...(c.aliases ? { aliases: [...c.aliases] } : {}),
  };
});

/** Finds a command by name or alias (case-insensitive). */
export function findCommand(name: string): SlashCommand | undefined {
  const n = name.toLowerCase();
  return COMMANDS.find((c) => c.name === n || c.aliases?.includes(n));
}
