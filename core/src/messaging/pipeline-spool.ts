/**
 * The pipeline's use of the inbound spool (inbound-spool.ts): what a message's ledger row says of
 * its spooled attachments, and getting them back for a message admitted again or a turn run again
 * after a restart.
 *
 * A row's `inbound` JSON carries `spool` (the manifest, once the attachments were downloaded and
 * written) and `prompt_images` (which of the message's images its turn was given: the others went
 * to the model as saved files, named in the prompt's text, or were refused).
 */
import type { ImageAttachmentInput } from '../protocol/attachments.js';
import type { InboundMessage } from './adapter.js';
import type { DeliveryLedger, DeliveryRecord } from './delivery-ledger.js';
import { lostAttachmentsText, type AttachmentNote } from './inbound-files.js';
import { manifestFromJson, type InboundSpool, type SpoolManifest } from './inbound-spool.js';

/** The parts of the pipeline these helpers use. */
export interface SpoolHost {
  readonly spool: InboundSpool | undefined;
  readonly ledger: DeliveryLedger;
  readonly opts: { log: (line: string) => void };
}

/**
 * Writes the message's images and files to the spool.
 * @returns the manifest for the row's inbound JSON; undefined when there is no spool (replies not
 * kept across restarts), nothing to keep, or the write failed (logged: the message goes on, its
 * attachments are then only in memory).
 */
export function spoolAttachments(
  p: SpoolHost,
  id: string,
  msg: Pick<InboundMessage, 'images' | 'files'>,
): SpoolManifest | undefined {
  if (!p.spool) return undefined;
  try {
    return p.spool.save(id, msg);
  } catch (err) {
    p.opts.log(`message ${id}: its attachments could not be kept for a restart: ${(err as Error).message}`);
    return undefined;
  }
}

function inboundOf(row: Pick<DeliveryRecord, 'inbound'>): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(row.inbound ?? 'null');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Records which of the message's images (indices into `InboundMessage.images`) its turn is given,
 * so a turn run again after a restart gets the same ones. Nothing when none, or without a spool.
 */
export function recordPromptImages(p: SpoolHost, id: string, indices: readonly number[]): void {
  if (!p.spool || !indices.length) return;
  const row = p.ledger.get(id);
  const inbound = row && inboundOf(row);
  if (!inbound || !inbound.spool) return;
  p.ledger.amendInbound(id, JSON.stringify({ ...inbound, prompt_images: indices }));
}

/**
 * The spooled images and files of a message a previous daemon accepted (`spool` in its row's
 * inbound JSON), for admitting it again; undefined when the row has no spool manifest.
 */
export function spooledAttachments(
  p: SpoolHost,
  id: string,
  spool: unknown,
):
  | { images: ImageAttachmentInput[]; files: NonNullable<InboundMessage['files']>; lost: AttachmentNote[] }
  | undefined {
  const manifest = manifestFromJson(spool);
  if (!manifest || !p.spool) return undefined;
  return p.spool.load(id, manifest);
}

/**
 * The images a turn run again after a restart is given (those its first run was given), and the
 * text naming the ones no longer in the spool ('' when none was lost).
 */
export function promptImagesOf(
  p: SpoolHost,
  row: Pick<DeliveryRecord, 'id' | 'inbound'>,
): { images: ImageAttachmentInput[]; lostText: string } {
  const inbound = inboundOf(row);
  const manifest = manifestFromJson(inbound?.spool);
  const pick = Array.isArray(inbound?.prompt_images)
    ? (inbound.prompt_images as unknown[]).filter((i): i is number => Number.isInteger(i))
    : [];
  if (!manifest || !pick.length || !p.spool) return { images: [], lostText: '' };
  const got = p.spool.load(row.id, manifest, pick);
  return { images: got.images, lostText: got.lost.length ? lostAttachmentsText(got.lost) : '' };
}
