/**
 * Sections of `config.yaml` whose keys belong to someone other than core (a platform adapter, a
 * plugin). A schema registered here is loose on purpose and its unknown keys are never reported
 * by the unknown-key check (`unknown-keys.ts`). Kept in its own file, importing zod only, so any
 * schema module (config, gateway) can mark a section without an import cycle.
 */
import { z } from 'zod';

/** Why a section's keys are not core's to check (shown nowhere; documents the mark). */
export interface OpenSectionMeta {
  /** Who owns the extra keys, e.g. `the platform adapter`. */
  owner: string;
}

/**
 * Registry of schemas whose unknown keys are legitimate. Mark one with
 * `schema.register(openSections, { owner: '…' })`.
 */
export const openSections = z.registry<OpenSectionMeta>();
