/**
 * What the user is told about tool commands a daemon that died (SIGKILL, the OOM killer, a crash)
 * left behind: one notice per command, kept per session for this daemon's life and shown as
 * `SessionInfo.notices` when a client opens that session (`session.resume`, `session.attach`).
 */
import type { ReapReport, ToolProcessEntry } from '@hermes/core/tools';

/** Longest command shown in a notice, chars. */
const SHOWN_COMMAND_CHARS = 200;

const shown = (e: ToolProcessEntry): string =>
  e.command.length > SHOWN_COMMAND_CHARS ? `${e.command.slice(0, SHOWN_COMMAND_CHARS - 1)}…` : e.command;

/** The notices of the sessions whose commands were left behind, keyed by profile and session. */
export class ToolReapNotices {
  private readonly notes = new Map<string, string[]>();

  /** Adds one notice per command of `report` (stopped now, or ended with the daemon). */
  add(report: Pick<ReapReport, 'stopped' | 'ended'>): void {
    for (const e of report.stopped)
      this.push(
        e,
        `The daemon stopped unexpectedly while this session's command was running: \`${shown(e)}\` (pid ${e.pid}). It was still running and has been stopped.`,
      );
    for (const e of report.ended)
      this.push(
        e,
        `The daemon stopped unexpectedly while this session's command was running: \`${shown(e)}\` (pid ${e.pid}). It was stopped with the daemon.`,
      );
  }

  /** The notices of session `id` of `profile` (empty when none). */
  of(profile: string, id: string): readonly string[] {
    return this.notes.get(`${profile}/${id}`) ?? [];
  }

  private push(e: ToolProcessEntry, text: string): void {
    const k = `${e.profile}/${e.session}`;
    this.notes.set(k, [...(this.notes.get(k) ?? []), text]);
  }
}
