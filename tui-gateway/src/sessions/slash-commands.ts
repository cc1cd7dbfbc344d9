/**
 * Slash commands the daemon answers for any client (`slash.exec`): the ones that need session or
 * profile state. Frontends handle screen-only commands (`/clear`, `/copy` …) themselves.
 */
import type { MethodResult } from '@hermes/core/protocol';
import type { Connection } from '../rpc/types.js';
import type { SessionRegistry } from './session-registry.js';

const HELP = `Commands handled by the daemon:
  /title TEXT   rename this session
  /usage        token usage of this session
  /status       session state, clients attached, model
  /help         this list`;

/** Runs one slash command for a session. Unknown commands answer `handled: false`. */
export function runSlashCommand(
  sessions: SessionRegistry,
  conn: Connection,
  sessionId: string,
  command: string,
): MethodResult<'slash.exec'> {
  const text = command.trim().replace(/^\//, '');
  const name = text.split(/\s+/)[0] ?? '';
  const arg = text.slice(name.length).trim();
  const profile = sessions.profile(conn.profile);
  const record = profile.db.getSession(sessionId);
  if (!record) return { output: `No session ${sessionId} in profile ${conn.profile}.`, handled: true };
  switch (name.toLowerCase()) {
    case 'help':
      return { output: HELP, handled: true };
    case 'title': {
      if (!arg) return { output: `Title: ${record.title ?? '(none)'}`, handled: true };
      profile.db.renameSession(sessionId, arg);
      const live = sessions.peek(conn.profile, sessionId);
      if (live) live.emit('session.info', { session: live.info() });
      return { output: `Title set to "${arg}".`, handled: true };
    }
    case 'usage': {
      const total = record.prompt_tokens + record.completion_tokens;
      return {
        output: `Tokens: ${record.prompt_tokens} prompt + ${record.completion_tokens} completion = ${total}; ${record.message_count} messages.`,
        handled: true,
      };
    }
    case 'status': {
      const live = sessions.peek(conn.profile, sessionId);
      return {
        output: `Session ${sessionId} (${record.title ?? 'untitled'}) · profile ${conn.profile} · model ${record.model ?? 'default'} · ${live?.busy ? 'busy' : 'idle'} · ${live?.clients.size ?? 0} client(s)`,
        handled: true,
      };
    }
    default:
      return { output: `Unknown command /${name}. Try /help.`, handled: false };
  }
}
