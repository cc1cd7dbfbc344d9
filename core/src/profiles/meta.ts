/**
 * `profile.yaml`: metadata about a profile (its description), kept apart from `config.yaml`.
 * A missing or unreadable file reads as empty: one broken file never breaks
 * `hermes profile list`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { writeFileAtomic } from '../util/atomic-write.js';

/** What `profile.yaml` holds. Unknown keys in the file are kept on write. */
export interface ProfileMeta {
  /** One or two sentences about what the profile is for. */
  description?: string;
}

function readRaw(file: string): Record<string, unknown> {
  if (!existsSync(file)) return {};
  try {
    const data: unknown = parse(readFileSync(file, 'utf8'));
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Reads a `profile.yaml` (usually `home.profileMetaFile`). Never throws.
 * @returns the known fields, trimmed; `{}` when the file is missing or not a YAML mapping.
 */
export function readProfileMeta(file: string): ProfileMeta {
  const raw = readRaw(file);
  const description = typeof raw.description === 'string' ? raw.description.trim() : '';
  return description ? { description } : {};
}

/**
 * Updates a `profile.yaml` in place (atomic write): only the given fields change; an empty
 * description removes the key; other keys are kept.
 * @throws Error naming the file when it cannot be written.
 */
export function writeProfileMeta(file: string, patch: ProfileMeta): void {
  const raw = readRaw(file);
  if (patch.description !== undefined) {
    const d = patch.description.trim();
    if (d) raw.description = d;
    else delete raw.description;
  }
  try {
    writeFileAtomic(file, stringify(raw));
  } catch (err) {
    throw new Error(`cannot write ${file}: ${(err as Error).message}`, { cause: err });
  }
}
