/**
 * Cron delivery to chat platforms through the messaging layer: `local`/`file:` stay with cron's own delivery, platform
 * targets go through `deliverMessage`, which uses the daemon's connected adapter when there is
 * one and the platform's standalone sender otherwise.
 */
import { loadConfig, loadSecrets } from '@hermes/core/config';
import {
  createCronDelivery,
  type CronDelivery,
  type CronMessage,
  type PlatformSender,
} from '@hermes/core/cron';
import { deliverMessage, platformRegistry } from '@hermes/core/messaging';
import { registerBundledPlatforms } from '../platforms/bundled.js';
import type { HermesHome } from '@hermes/core/home';

/** A `PlatformSender` for one profile home. */
export function platformSender(home: HermesHome, log?: (line: string) => void): PlatformSender {
  registerBundledPlatforms();
  return {
    supports: (platform) => platformRegistry.isRegistered(platform),
    async send(target, msg: CronMessage) {
      const text = [target.platform, target.chatId, target.threadId].filter(Boolean).join(':');
      const r = await deliverMessage(
        { target: text, text: msg.text, jobId: msg.job.id, jobName: msg.job.name },
        {
          profile: home.profile,
          home,
          config: loadConfig(home),
          secrets: loadSecrets(home),
          ...(log ? { log } : {}),
        },
      );
      if (!r.ok) throw new Error(r.error ?? `delivery to ${r.target} failed`);
    },
  };
}

/** Cron's delivery for a home with platform targets wired to the messaging layer. */
export function cronDeliveryWithPlatforms(home: HermesHome, log?: (line: string) => void): CronDelivery {
  return createCronDelivery(home, platformSender(home, log));
}
