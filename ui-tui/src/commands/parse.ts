/** Parses what the user sends: plain text, a known slash command, or an unknown one for the daemon. */
import { findCommand, type SlashCommand } from './table.js';

/** The meaning of a submitted input. */
export type ParsedInput =
  | { kind: 'text'; text: string }
  | { kind: 'command'; command: SlashCommand; args: string; raw: string }
  /** Not a TUI command: sent as is to `slash.exec`. */
  | { kind: 'unknown'; name: string; args: string; raw: string };

const COMMAND_RE = /^\/([A-Za-z][\w-]*)(?:\s+([\s\S]*))?$/;

/**
 * Parses an input. A leading `/` followed by a word is a command (`/usr/bin/x …` is text: the
 * word holds another slash); `//text` sends `/text` as text.
 */
export function parseInput(input: string): ParsedInput {
  const trimmed = input.trim();
  if (trimmed.startsWith('//')) return { kind: 'text', text: input.replace(/^(\s*)\//, '$1') };
  const m = COMMAND_RE.exec(trimmed);
  if (!m) return { kind: 'text', text: input };
  const name = m[1]!;
  const args = (m[2] ?? '').trim();
  const command = findCommand(name);
  if (command) return { kind: 'command', command, args, raw: trimmed };
  return { kind: 'unknown', name, args, raw: trimmed };
}
