/**
 * The platform plugins shipped in this repository: each folder `plugins/platforms/<name>` is the
 * workspace package `@hermes/platform-<name>` whose main export `platform` is its definition
 * (`definePlatform`). Adding a platform is its folder plus its name in `BUNDLED_PLATFORMS`: the
 * workspace glob installs it, `npm run build` compiles every plugin folder, and bundled.test.ts
 * checks that the folders and this list agree (plugins/platforms/README.md).
 *
 * Only deferred loaders are registered here: a plugin module (and whatever it imports) loads the
 * first time its platform is enabled, by a computed specifier that the CLI bundle leaves outside.
 */
import { registerDeferredPlatform, type PlatformEntry } from '@hermes/core/messaging';

/** Platforms bundled with hermes, by registry name (= folder name under plugins/platforms). */
export const BUNDLED_PLATFORMS = [
  'api_server',
  'discord',
  'email',
  'irc',
  'matrix',
  'slack',
  'telegram',
  'webhook',
] as const;

let registered = false;

/** The package of a bundled platform (a workspace package, linked into node_modules). */
export function platformPackage(name: string): string {
  return `@hermes/platform-${name}`;
}

/** Imports a bundled platform's module and returns its `platform` export, if any. */
export async function loadBundledPlatform(name: string): Promise<PlatformEntry | undefined> {
  // a computed specifier: the plugin is resolved (and type-checked) only when it is used
  const mod = (await import(platformPackage(name))) as { platform?: PlatformEntry };
  return mod.platform;
}

/** Registers a deferred loader for every bundled platform (idempotent). */
export function registerBundledPlatforms(): void {
  if (registered) return;
  registered = true;
  for (const name of BUNDLED_PLATFORMS) registerDeferredPlatform(name, () => loadBundledPlatform(name));
}
