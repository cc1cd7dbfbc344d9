/**
 * Attachments of a prompt (`prompt.submit`'s `attachments`) and how a stored message lists them.
 *
 * What a client sends is a discriminated union on `kind`; each kind says what the daemon resolves
 * and checks (it never trusts a client's bytes or paths blindly). What clients get back, on stored
 * messages, queued prompts and `turn.start`, is the `AttachmentInfo` of each: enough for a chip.
 */
import { z } from 'zod';

/**
 * An image: a file the daemon reads (`path`, absolute or relative to the session's folder) or
 * the bytes themselves (`data`, base64, e.g. from the clipboard). Exactly one of the two.
 * `mime` is a hint only: the daemon decides the type from the bytes (png, jpeg, gif, webp).
 * `name` is what the chip shows (default: the file's name, or `clipboard.<ext>`).
 */
export const ImageAttachmentInput = z
  .object({
    kind: z.literal('image'),
    path: z.string().min(1).max(4096).optional(),
    /** Base64 of the image bytes (the daemon caps the decoded size, `images.max_bytes`). */
    data: z.string().min(1).optional(),
    mime: z.string().max(100).optional(),
    name: z.string().min(1).max(200).optional(),
  })
  .refine((a) => (a.path === undefined) !== (a.data === undefined), {
    message: 'an image attachment needs exactly one of path and data',
  });
export type ImageAttachmentInput = z.infer<typeof ImageAttachmentInput>;

/** One attachment of `prompt.submit`, by `kind`. */
export const PromptAttachment = z.discriminatedUnion('kind', [ImageAttachmentInput]);
export type PromptAttachment = z.infer<typeof PromptAttachment>;

/**
 * An attachment as stored with a message and shown as a chip: its kind, a display name, and for
 * an image its type and size in bytes (decoded).
 */
export const AttachmentInfo = z.object({
  kind: z.string(),
  name: z.string(),
  mime: z.string().optional(),
  bytes: z.number().int().nonnegative().optional(),
});
export type AttachmentInfo = z.infer<typeof AttachmentInfo>;
