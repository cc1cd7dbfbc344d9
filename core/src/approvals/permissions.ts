/**
 * Listing and removing approvals: what `/permissions` (the daemon's slash command) and
 * `hermes config allowlist` show and change. Two lists: this session's approvals (answered
 * `session`, in memory) and the profile's `command_allowlist` in config.yaml (answered `always`,
 * or written by hand). Entries are numbered across both lists, session first, so `remove N`
 * names one; an entry can also be named by its text.
 */
import { loadConfig, setConfigValue } from '../config/config-file.js';
import type { HermesHome } from '../home/home.js';
import { canonicalEntry } from './allowlist.js';
import { classifyAllowlistEntry } from './allowlist-entry.js';
import { LEGACY_CLASSES } from './legacy-allowlist.js';

/** One entry as a listing line: its text and, for the old forms, what it does now. */
export function entryLine(n: number, text: string): string {
  const kind = classifyAllowlistEntry(text, LEGACY_CLASSES).kind;
  const note =
    kind === 'class'
      ? '  (ignored: approves a whole class; remove it)'
      : kind === 'exact'
        ? '  (old form: approves this exact command line)'
        : '';
  return `  ${n}. ${text}${note}`;
}

/**
 * The listing of `/permissions`: the session's entries, then the profile's, numbered together.
 * @param profile the profile's name, for the heading.
 */
export function formatPermissions(
  session: readonly string[],
  allowlist: readonly string[],
  profile: string,
): string {
  const out: string[] = [];
  out.push(
    session.length === 0
      ? 'This session: no approvals.'
      : `This session (answered "session"; until the session ends):`,
  );
  session.forEach((t, i) => out.push(entryLine(i + 1, t)));
  out.push(
    allowlist.length === 0
      ? `Profile ${profile}: command_allowlist is empty.`
      : `Profile ${profile} (command_allowlist in config.yaml; answered "always"):`,
  );
  allowlist.forEach((t, i) => out.push(entryLine(session.length + i + 1, t)));
  if (session.length + allowlist.length > 0) out.push('Remove one with /permissions remove N (or its text).');
  return out.join('\n');
}

/** Which list and position `arg` names: a number across the lists, or an entry's text. */
export type Picked = { list: 'session' | 'profile'; text: string } | { error: string };

/**
 * Finds the entry `arg` names: `N` (1-based, session entries first), or the entry's text (as
 * written or in canonical form).
 */
export function pickEntry(session: readonly string[], allowlist: readonly string[], arg: string): Picked {
  const all = [
    ...session.map((text) => ({ list: 'session' as const, text })),
    ...allowlist.map((text) => ({ list: 'profile' as const, text })),
  ];
  const want = arg.trim();
  if (/^\d+$/.test(want)) {
    const hit = all[Number(want) - 1];
    if (hit) return hit;
    return { error: `No entry ${want}: there are ${all.length}.` };
  }
  const canonical = canonicalEntry(want);
  const hit = all.find((e) => e.text.trim() === want || canonicalEntry(e.text) === canonical);
  return hit ?? { error: `No entry "${want}".` };
}

/**
 * Removes `text` from the profile's `command_allowlist` in config.yaml (re-read first, so entries
 * written meanwhile are kept; comments kept).
 * @returns whether it was there.
 * @throws ConfigError when config.yaml is broken (nothing is written).
 */
export function removeAllowlistEntry(home: HermesHome, text: string): boolean {
  const current = loadConfig(home).command_allowlist;
  const next = current.filter((e) => e !== text);
  if (next.length === current.length) return false;
  setConfigValue(home, 'command_allowlist', next);
  return true;
}
