/**
 * Images of an ACP prompt: the editor's `image` content blocks (base64 `data` and `mimeType`)
 * become image attachments of `prompt.submit`; the daemon checks them (type by magic bytes,
 * `images.max_bytes`) and refuses them for a model without vision. An image too large for one
 * protocol frame travels as a private temporary file (0600) instead, deleted once submitted.
 * Whether to advertise `promptCapabilities.image` is asked of the profile's model at `initialize`.
 */
import { randomBytes } from 'node:crypto';
import { unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { DaemonClient } from '@hermes/client';
import type { PromptAttachment } from '@hermes/core/protocol';
import type { HermesConfig } from '@hermes/core/config';
import { modelAcceptsImages } from '@hermes/core/model';

/** Largest base64 image sent inline in `prompt.submit` (below the 4 MiB frame), chars. */
export const INLINE_IMAGE_MAX_CHARS = 3 * 1024 * 1024;

/** The attachments of a prompt's image blocks, and a clean-up for the temporary files made. */
export async function imageAttachments(
  blocks: readonly ContentBlock[],
  dir = tmpdir(),
): Promise<{ attachments: PromptAttachment[]; cleanup: () => Promise<void> }> {
  const attachments: PromptAttachment[] = [];
  const temp: string[] = [];
  let n = 0;
  for (const b of blocks) {
    if (b.type !== 'image') continue;
    n++;
    const name = b.uri ? (b.uri.split('/').pop() ?? `image-${n}`) : `image-${n}`;
    if (b.data.length <= INLINE_IMAGE_MAX_CHARS) {
      attachments.push({ kind: 'image', data: b.data, mime: b.mimeType, name });
      continue;
    }
    const file = join(dir, `hermes-acp-${randomBytes(6).toString('hex')}`);
    await writeFile(file, Buffer.from(b.data, 'base64'), { mode: 0o600 });
    temp.push(file);
    attachments.push({ kind: 'image', path: file, mime: b.mimeType, name });
  }
  return {
    attachments,
    cleanup: async () => {
      await Promise.all(temp.map((f) => unlink(f).catch(() => undefined)));
    },
  };
}

/**
 * Whether the profile's model takes images (`model.vision`, else the known vision models), as
 * the daemon's config says now; false when it cannot be asked.
 */
export async function profileTakesImages(daemon: Pick<DaemonClient, 'request'>): Promise<boolean> {
  try {
    const { value } = await daemon.request('config.get', { key: 'model' });
    const m = value as HermesConfig['model'] | null;
    if (!m) return false;
    return modelAcceptsImages(typeof m.default === 'string' ? m.default : '', { model: m });
  } catch {
    return false;
  }
}
