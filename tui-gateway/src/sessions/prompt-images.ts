/**
 * The images of a `prompt.submit`: each attachment of kind `image` read (a path, relative to the
 * session's folder) or decoded (base64), checked (a readable regular file, `images.max_bytes`,
 * a real PNG/JPEG/GIF/WebP by its bytes) and put in the profile's media store; then the session's
 * model must accept images (`model.vision`). Any refusal fails the request with InvalidParams
 * naming the attachment or the model, before anything is queued or stored.
 */
import type { HermesConfig } from '@hermes/core/config';
import type { HermesHome } from '@hermes/core/home';
import { ImageAttachmentError, MediaStore, resolveImages, type StoredImage } from '@hermes/core/images';
import { visionRefusal } from '@hermes/core/model';
import { RpcErrorCode, type PromptAttachment } from '@hermes/core/protocol';
import { RpcMethodError } from '../rpc/types.js';
import type { ProfileRuntime } from './profile-runtime.js';

/** What `promptImages` needs about the session and its profile. */
export interface PromptImagesContext {
  config: HermesConfig;
  /** The profile's home (its media store; paths it protects are refused). */
  home: HermesHome;
  /** The session's working folder (relative paths), or undefined (then the daemon's). */
  cwd: string | null | undefined;
  /** The session's model (its record), or undefined: `model.default` of the config. */
  model: string | null | undefined;
}

/**
 * The checked, stored images of a prompt ([] when it has none).
 * @throws RpcMethodError InvalidParams naming the refused attachment, or the model without vision.
 */
export function promptImages(
  attachments: readonly PromptAttachment[] | undefined,
  ctx: PromptImagesContext,
): StoredImage[] {
  if (!attachments?.some((a) => a.kind === 'image')) return [];
  const model = ctx.model || ctx.config.model.default;
  const count = attachments.filter((a) => a.kind === 'image').length;
  const refused = visionRefusal(model, count, ctx.config);
  if (refused) throw new RpcMethodError(RpcErrorCode.InvalidParams, refused);
  try {
    return resolveImages(attachments, {
      store: new MediaStore(ctx.home.mediaDir),
      cwd: ctx.cwd ?? process.cwd(),
      maxBytes: ctx.config.images.max_bytes,
      home: ctx.home,
    });
  } catch (err) {
    if (err instanceof ImageAttachmentError)
      throw new RpcMethodError(RpcErrorCode.InvalidParams, err.message);
    throw err;
  }
}

/**
 * The checked, stored images of a prompt to session `sessionId` of `profile`, under the profile's
 * config as it is on disk now (`model.vision`, `images.max_bytes`) and the session's folder and
 * model ([] when the prompt has none).
 * @throws RpcMethodError as `promptImages`.
 */
export function sessionPromptImages(
  profile: Pick<ProfileRuntime, 'refresh' | 'config' | 'home' | 'db'>,
  sessionId: string,
  attachments: readonly PromptAttachment[] | undefined,
): StoredImage[] {
  if (!attachments?.some((a) => a.kind === 'image')) return [];
  profile.refresh();
  const record = profile.db.getSession(sessionId);
  return promptImages(attachments, {
    config: profile.config,
    home: profile.home,
    cwd: record?.cwd,
    model: record?.model,
  });
}
