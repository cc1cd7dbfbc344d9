/**
 * The product's chat commands as Discord application (slash) commands: one per command the
 * messaging layer answers (`PLATFORM_COMMANDS`, from the one slash table), registered by a bulk
 * overwrite on connect. An invocation becomes the command's text (`/approve session`) and goes
 * through the pipeline like a typed command.
 */
import { COMMAND_HELP, PLATFORM_COMMANDS, type PlatformCommand } from '@hermes/core';

/** Discord's option type of a string (API value). */
const STRING = 3;
/** Longest command description Discord takes, characters. */
const MAX_DESCRIPTION = 100;

/** One command option (API shape). */
export interface CommandOption {
  type: number;
  name: string;
  description: string;
  required?: boolean;
  choices?: Array<{ name: string; value: string }>;
}

/** One application command as registered (API shape, `PUT /applications/{id}/commands`). */
export interface CommandDef {
  name: string;
  description: string;
  type: 1;
  options?: CommandOption[];
}

/** The options of the commands that take an argument. */
const OPTIONS: Partial<Record<PlatformCommand, CommandOption[]>> = {
  model: [{ type: STRING, name: 'id', description: 'the model to use by default', required: false }],
  approve: [
    {
      type: STRING,
      name: 'scope',
      description: 'once (default), for this session, or always',
      required: false,
      choices: [
        { name: 'session', value: 'session' },
        { name: 'always', value: 'always' },
      ],
    },
  ],
};

function cut(text: string): string {
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}

/** The application commands to register: the platform commands in `/help` order. */
export function applicationCommands(): CommandDef[] {
  return PLATFORM_COMMANDS.map((name) => {
    const options = OPTIONS[name];
    return {
      name,
      description: cut(COMMAND_HELP[name]),
      type: 1 as const,
      ...(options ? { options } : {}),
    };
  });
}

/**
 * The text an invocation stands for: `/name` and its option values in declaration order
 * (`/approve session`), or undefined for a command this product does not register.
 */
export function commandText(name: string, option: (name: string) => string | null): string | undefined {
  if (!(PLATFORM_COMMANDS as readonly string[]).includes(name)) return undefined;
  const args = (OPTIONS[name as PlatformCommand] ?? [])
    .map((o) => option(o.name)?.trim())
    .filter((v): v is string => !!v);
  return [`/${name}`, ...args].join(' ');
}
