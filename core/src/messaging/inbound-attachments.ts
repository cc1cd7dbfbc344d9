/**
 * The lazy attachments of an inbound message (`InboundMessage.fetchAttachments`): adapters hand
 * the pipeline a message's text and metadata with a thunk that downloads its attachments, and the
 * pipeline calls it only once the sender is authorized and the message is recorded (pipeline.ts
 * step 1). So a message from an unauthorized sender — a stranger's DM, a post in a listened
 * channel — makes the daemon request nothing from the platform, write nothing to disk, and give
 * the model nothing, and a redelivered copy of a message is dropped before a second download.
 */
import type { InboundMessage } from './adapter.js';

/**
 * Runs the message's `fetchAttachments` (when it has one) and merges the result: images and files
 * after the ones the message already carries, notes appended to the text (one per line, blank
 * lines dropped). A thunk that throws becomes a note naming the failure.
 * @returns a new message without `fetchAttachments` (the same object when there was none).
 */
export async function resolveInboundAttachments(msg: InboundMessage): Promise<InboundMessage> {
  const { fetchAttachments, ...rest } = msg;
  if (!fetchAttachments) return msg;
  let got: Awaited<ReturnType<typeof fetchAttachments>>;
  try {
    got = await fetchAttachments();
  } catch (err) {
    got = { notes: [`[attachments not received: ${(err as Error).message}]`] };
  }
  const images = [...(msg.images ?? []), ...(got.images ?? [])];
  const files = [...(msg.files ?? []), ...(got.files ?? [])];
  const text = [msg.text, ...(got.notes ?? [])].filter((l) => l.trim()).join('\n');
  return {
    ...rest,
    text,
    ...(images.length ? { images } : {}),
    ...(files.length ? { files } : {}),
  };
}
