/** Loaded by `hermes model`, `hermes auth` and shell completion of provider ids when they run. */
export {
  applyEdits,
  checkProviderKey,
  collectKeys,
  effectiveProvider,
  keyVarSet,
  listProviderModels,
  normalizeProviderName,
  parseModelSpec,
  presetFor,
  providerStatuses,
  resolvePrimary,
  switchEdits,
  unknownProviderMessage,
  ModelError,
  PROVIDER_IDS,
  PROVIDER_PRESETS,
  type ProviderPreset,
} from '@hermes/core/model';
export {
  EnvValueError,
  loadConfig,
  loadSecrets,
  lookupSecret,
  setConfigValue,
  setSecret,
  unsetConfigValue,
} from '@hermes/core/config';
