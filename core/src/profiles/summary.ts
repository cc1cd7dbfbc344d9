/**
 * `hermes profile list` and `hermes profile show NAME`: one summary per profile —
 * name, active mark, path, model, session count, description. Reads config.yaml raw (a broken
 * config never breaks the listing) and counts sessions through a read-only SessionDB, only when
 * `state.db` exists (a listing never creates a database).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { readActiveProfile, type HermesHome } from '../home/home.js';
import { DEFAULT_PROFILE } from '../home/profile-name.js';
import { SessionDB } from '../state/session-db.js';
import { existingProfile, profileNames } from './lookup.js';
import { readProfileMeta } from './meta.js';

/** One line of `hermes profile list`. */
export interface ProfileSummary {
  name: string;
  /** Absolute folder of the profile's home. */
  path: string;
  /** True for the profile this invocation runs in (flag, HERMES_HOME, sticky, else default). */
  active: boolean;
  /** True for the profile named in `<root>/active_profile` (`default` when the file is absent). */
  sticky: boolean;
  /** `model.default` of config.yaml, when set. */
  model?: string;
  /** `model.provider` of config.yaml, when set. */
  provider?: string;
  /** Stored sessions in state.db; 0 without a database; null when it cannot be read. */
  sessions: number | null;
  /** Why `sessions` is null. */
  sessions_error?: string;
  /** From profile.yaml. */
  description?: string;
}

/** `hermes profile show NAME`: the summary plus what the home holds (never secret values). */
export interface ProfileDetails extends ProfileSummary {
  /** Whether the home has a `.env` (its contents are never shown). */
  has_env: boolean;
  /** Installed skills (`skills/<name>/SKILL.md`). */
  skills: string[];
  has_soul: boolean;
  /** Messages stored in state.db (null when unreadable or absent). */
  messages: number | null;
}

function readModel(home: HermesHome): { model?: string; provider?: string } {
  try {
    const raw: unknown = parse(readFileSync(home.configFile, 'utf8'));
    const m = (raw as { model?: unknown } | null)?.model;
    if (typeof m === 'string') return m ? { model: m } : {};
    if (m && typeof m === 'object') {
      const { default: model, provider } = m as { default?: unknown; provider?: unknown };
      return {
        ...(typeof model === 'string' && model ? { model } : {}),
        ...(typeof provider === 'string' && provider ? { provider } : {}),
      };
    }
  } catch {
    /* missing or unreadable: no model to show */
  }
  return {};
}

const PAGE = 10_000;

/**
 * Counts the sessions (and messages) of a home with a read-only connection.
 * @returns zeros without state.db; `error` naming the file when it cannot be read.
 */
function countStored(home: HermesHome): { sessions: number | null; messages: number | null; error?: string } {
  if (!existsSync(home.stateDbFile)) return { sessions: 0, messages: 0 };
  let db: SessionDB | undefined;
  try {
    db = SessionDB.open(home.stateDbFile, { readonly: true });
    let sessions = 0;
    for (let offset = 0; ; offset += PAGE) {
      const n = db.listSessions({ limit: PAGE, offset }).length;
      sessions += n;
      if (n < PAGE) break;
    }
    return { sessions, messages: db.countMessages() };
  } catch (err) {
    return { sessions: null, messages: null, error: (err as Error).message };
  } finally {
    db?.close();
  }
}

function summarize(
  home: HermesHome,
  active: string,
  sticky: string,
): ProfileSummary & { messages: number | null } {
  const counted = countStored(home);
  const meta = readProfileMeta(home.profileMetaFile);
  return {
    name: home.profile,
    path: home.dir,
    active: home.profile === active,
    sticky: home.profile === sticky,
    ...readModel(home),
    sessions: counted.sessions,
    ...(counted.error ? { sessions_error: counted.error } : {}),
    ...(meta.description ? { description: meta.description } : {}),
    messages: counted.messages,
  };
}

/**
 * Every profile under the root of `home`, `default` first.
 * @param home the home this invocation runs in (its profile gets `active: true`).
 */
export function listProfiles(home: HermesHome): ProfileSummary[] {
  const sticky = readActiveProfile(home.root) ?? DEFAULT_PROFILE;
  return profileNames(home).map((name) => {
    const { messages: _messages, ...summary } = summarize(home.forProfile(name), home.profile, sticky);
    return summary;
  });
}

/**
 * One profile in detail.
 * @throws ProfileError `EINVAL` / `ENOENT` for a bad or missing profile.
 */
export function showProfile(home: HermesHome, name: string): ProfileDetails {
  const target = existingProfile(home, name);
  const sticky = readActiveProfile(home.root) ?? DEFAULT_PROFILE;
  const summary = summarize(target, home.profile, sticky);
  let skills: string[];
  try {
    skills = readdirSync(target.skillsDir)
      .filter((s) => existsSync(join(target.skillsDir, s, 'SKILL.md')))
      .sort();
  } catch {
    skills = [];
  }
  const isFile = (p: string): boolean => {
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
  return { ...summary, has_env: isFile(target.envFile), skills, has_soul: isFile(target.soulFile) };
}
