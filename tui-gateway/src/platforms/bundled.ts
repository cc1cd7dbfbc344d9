/**
 * Discovery of the platform plugins shipped in this repository (`plugins/platforms/<name>`, each
 * the workspace package `@hermes/platform-<name>`). Only deferred loaders are registered here:
 * a plugin module (and whatever it imports) loads the first time its platform is enabled.
 */
import { registerDeferredPlatform, type PlatformEntry } from '@hermes/core/messaging/index';

/** Platforms bundled with hermes, by registry name. */
export const BUNDLED_PLATFORMS = ['api_server', 'irc', 'telegram', 'webhook'] as const;

let registered = false;

/**
 * Registers a deferred loader for every bundled platform (idempotent). Each plugin package's
 * main export is `platform: PlatformEntry`.
 */
export function registerBundledPlatforms(): void {
  if (registered) return;
  registered = true;
  for (const name of BUNDLED_PLATFORMS) {
    registerDeferredPlatform(name, async () => {
      // a computed specifier: the plugin is resolved (and type-checked) only when it is used
      const spec = `@hermes/platform-${name}`;
      const mod = (await import(spec)) as { platform?: PlatformEntry };
      return mod.platform;
    });
  }
}
