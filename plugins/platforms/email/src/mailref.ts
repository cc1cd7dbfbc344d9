/**
 * A mail's reference kept in the delivery ledger while the pipeline has not had all of it
 * (`InboundMessage.attachmentsRef`): enough to read the mail again from the mailbox after a
 * restart — its UID under the mailbox's UIDVALIDITY — and no content.
 */
import { z } from 'zod';

/** The reference of one mail. */
export const MailRef = z.object({
  uid: z.number().int().positive(),
  /** The mailbox's UIDVALIDITY when the UID was read (another one: the UID means another mail). */
  validity: z.string(),
  /** The mail's size, bytes (a mail over the cap keeps its text, not its attachments). */
  size: z.number().int().nonnegative(),
  /** The pipeline never had the mail's text (it went with the attachments). */
  withText: z.boolean(),
  /** The Message-ID used when the mail has none. */
  fallbackId: z.string(),
});
/** The reference of one mail (see `MailRef`). */
export type MailRef = z.infer<typeof MailRef>;
