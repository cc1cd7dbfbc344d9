/** Text output of `hermes profile list | show` (JSON output is the core objects as they are). */
import type { ProfileDetails, ProfileSummary } from '@hermes/core/profiles';

const sessionsText = (p: ProfileSummary): string => (p.sessions === null ? '?' : String(p.sessions));

/**
 * The profile table: a `*` marks the profile this invocation runs in; a footer names the sticky
 * profile when it is another one.
 */
export function formatProfileTable(profiles: readonly ProfileSummary[]): string {
  const rows = profiles.map((p) => [
    p.active ? '*' : ' ',
    p.name,
    p.model ?? '-',
    sessionsText(p),
    p.path,
    p.description ?? '',
  ]);
  const head = [' ', 'NAME', 'MODEL', 'SESSIONS', 'PATH', 'DESCRIPTION'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const out = [line(head), ...rows.map(line)];
  const active = profiles.find((p) => p.active);
  const sticky = profiles.find((p) => p.sticky);
  if (sticky && active && sticky !== active) {
    out.push('', `Sticky profile (hermes profile use): ${sticky.name}`);
  }
  for (const p of profiles) {
    if (p.sessions_error) out.push(`warning: sessions of "${p.name}" unreadable: ${p.sessions_error}`);
  }
  return `${out.join('\n')}\n`;
}

/** `hermes profile show NAME` as `key: value` lines. */
export function formatProfileDetails(p: ProfileDetails, aliases: readonly string[]): string {
  const lines: Array<[string, string]> = [
    ['Profile', `${p.name}${p.active ? ' (active)' : ''}${p.sticky ? ' (sticky)' : ''}`],
    ['Path', p.path],
    ['Description', p.description ?? '-'],
    ['Model', p.model ? `${p.model}${p.provider ? ` (${p.provider})` : ''}` : '-'],
    ['Sessions', sessionsText(p)],
    ['Messages', p.messages === null ? '?' : String(p.messages)],
    ['Skills', p.skills.length ? p.skills.join(', ') : '-'],
    ['SOUL.md', p.has_soul ? 'yes' : 'no'],
    ['.env', p.has_env ? 'yes (values not shown)' : 'no'],
    ['Aliases', aliases.length ? aliases.join(', ') : '-'],
  ];
  const w = Math.max(...lines.map(([k]) => k.length)) + 1;
  return `${lines.map(([k, v]) => `${`${k}:`.padEnd(w)} ${v}`).join('\n')}\n`;
}
