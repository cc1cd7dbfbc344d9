/**
 * Profile management: create, list, show, use, rename, delete, export,
 * import, wrapper aliases, profile.yaml metadata, and `profilesToServe`. Every operation takes a
 * `HermesHome` of any profile under the root and works at that root.
 */
export { ProfileError, type ProfileErrorCode } from './errors.js';
export { existingProfile, profileNames } from './lookup.js';
export { profilesToServe, type ServedProfile } from './serve.js';
export { createProfile, type CreateMode, type CreateProfileOptions, type CreatedProfile } from './create.js';
export { listProfiles, showProfile, type ProfileDetails, type ProfileSummary } from './summary.js';
export { useProfile, stickyProfile } from './use.js';
export { renameProfile, type RenamedProfile } from './rename.js';
export { deleteProfile, type DeletedProfile } from './delete.js';
export { exportProfile, type ExportedProfile } from './export.js';
export { importProfile, type ImportedProfile } from './import.js';
export { heldSessions, type HeldSession } from './busy.js';
export { readProfileMeta, writeProfileMeta, type ProfileMeta } from './meta.js';
export {
  aliasCollision,
  aliasDir,
  createAlias,
  listAliases,
  removeAlias,
  type AliasOptions,
  type CreatedAlias,
} from './alias.js';
