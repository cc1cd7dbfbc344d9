/**
 * Creating the stored session of a platform conversation: the session row (source = platform
 * name), the system prompt with the platform's context block, and the route record that lets a
 * lost sessions.json be rebuilt. Loading it later (`openAgentSession` with `{kind: 'id'}`) uses
 * the stored system prompt, so the daemon's live sessions need nothing platform-specific.
 *
 * Imports the tool registry (for the tool list in the prompt): reach it by subpath, not through
 * `@hermes/core`'s index.
 */
import { mkdirSync } from 'node:fs';
import { buildSystemPrompt } from '../agent/system-prompt.js';
import type { HermesConfig } from '../config/schema.js';
import { loadSecrets } from '../config/secrets.js';
import type { HermesHome } from '../home/home.js';
import type { SessionDB } from '../state/session-db.js';
import { availableTools, builtinTools } from '../tools/registry.js';
import type { NewPlatformSession } from './backend.js';
import { writeRouteRecord } from './route-record.js';

/** Longest session title, characters (the SessionDB limit is 200). */
const MAX_TITLE = 120;

/** Default working directory of platform sessions: `<home>/workspace`. */
export function defaultPlatformCwd(home: HermesHome): string {
  return home.path('workspace');
}

/**
 * Writes a new platform session and returns its id.
 * @param model the model id recorded on the session (default: `model.default`).
 * @throws SessionDBError when the database refuses the write.
 */
export function createPlatformSession(
  db: SessionDB,
  home: HermesHome,
  config: HermesConfig,
  init: NewPlatformSession,
  model?: string,
): string {
  mkdirSync(init.cwd, { recursive: true });
  const systemPrompt = buildSystemPrompt({
    home,
    config,
    cwd: init.cwd,
    toolNames: availableTools(builtinTools(), { config, secrets: loadSecrets(home) }).map((t) => t.name),
    extra: init.systemPromptExtra,
  });
  const title = [...init.title.replace(/\s+/g, ' ').trim()].slice(0, MAX_TITLE).join('') || null; // by code point
  const session = db.createSession({
    source: init.source.platform,
    title,
    model: model ?? (config.model.default || null),
    cwd: init.cwd,
  });
  db.appendMessages(session.id, [{ role: 'system', content: systemPrompt }, ...(init.history ?? [])]);
  writeRouteRecord(db, session.id, init.key, init.source);
  return session.id;
}
