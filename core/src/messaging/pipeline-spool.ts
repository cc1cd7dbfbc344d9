/**
 * The pipeline's use of the inbound spool (inbound-spool.ts): what a message's ledger row says of
 * its spooled attachments, and getting them back for a message admitted again or a turn run again
 * after a restart.
 *
 * A row's `inbound` JSON carries `spool` (the manifest, once the attachments were downloaded and
 * written) and `prompt_images` (which of the message's images its turn was given: the others went
 * to the model as saved files, named in the prompt's text, or were refused) — or, when the spool
 * could not be written, `prompt_images_unkept` (those images' names and sizes, named as lost in a
 * turn run again).
 */
import type { InboundMessage, PlatformAdapter } from './adapter.js';
import type { DeliveryLedger, DeliveryRecord } from './delivery-ledger.js';
import { resolveInboundAttachments } from './inbound-attachments.js';
import { lostAttachmentsText } from './inbound-files.js';
import { manifestFromJson, type InboundSpool, type SpoolManifest } from './inbound-spool.js';
import { attachmentNotes, notesFromJson } from './pipeline-files.js';

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
 * Records which of the message's images (indices into `images`, the message's
 * `InboundMessage.images`) its turn is given, so a turn run again after a restart gets the same
 * ones. When they are not in the spool (its write failed), their names and sizes are recorded
 * instead (`prompt_images_unkept`), so the turn run again names them as lost rather than running
 * silently without them. Nothing when none, or without a spool (replies not kept across restarts).
 */
export function recordPromptImages(
  p: SpoolHost,
  id: string,
  indices: readonly number[],
  images: Pick<InboundMessage, 'images'>['images'] = [],
): void {
  if (!p.spool || !indices.length) return;
  const row = p.ledger.get(id);
  const inbound = row && inboundOf(row);
  if (!inbound) return;
  if (manifestFromJson(inbound.spool)) {
    p.ledger.amendInbound(id, JSON.stringify({ ...inbound, prompt_images: indices }));
    return;
  }
  const unkept = attachmentNotes({ images: indices.flatMap((i) => (images[i] ? [images[i]] : [])) });
  if (unkept.length) p.ledger.amendInbound(id, JSON.stringify({ ...inbound, prompt_images_unkept: unkept }));
}

/** What a ledger row's inbound JSON says of the message's attachments. */
export interface InboundAttachmentsJson {
  /** Names and sizes (`AttachmentNote`s). */
  attachments?: unknown;
  /** The spool manifest, once the bytes were kept. */
  spool?: unknown;
  /** True while the download had not finished. */
  fetching?: unknown;
  /** `InboundMessage.attachmentsRef`, while the download had not finished. */
  ref?: unknown;
}

/** Said in a turn run again after a restart whose record of its attachments is damaged. */
export const UNREADABLE_RECORD_TEXT =
  '(This message came with attachments that could not be read back after the agent restarted ' +
  '(their record is damaged), so they are not included. Ask the sender to send them again if needed.)';

/** Said in a readmitted message whose download a restart cut, when it cannot be done again. */
export const CUT_DOWNLOAD_TEXT =
  '(This message came with attachments that were still being downloaded when the agent ' +
  'restarted, so they were not received. Ask the sender to send them again if needed.)';

/**
 * A message a previous daemon accepted (`base`: its text and source), with its attachments back
 * for admitting it again: from the spool; downloaded again through the adapter's
 * `refetchAttachments` when the restart cut the download (then spooled and recorded, so a second
 * restart keeps them); what cannot be had is named in the text. Call it only for an authorized
 * sender (a download goes to the platform).
 * @returns undefined when nothing is left to admit.
 */
export async function restoredMessage(
  p: SpoolHost & { readonly opts: { adapter: Pick<PlatformAdapter, 'refetchAttachments'> } },
  id: string,
  data: InboundAttachmentsJson & Record<string, unknown>,
  base: InboundMessage,
): Promise<InboundMessage | undefined> {
  const withLost = (m: InboundMessage, lostText: string): InboundMessage | undefined => {
    const text = lostText ? `${m.text}\n\n${lostText}`.trim() : m.text;
    return text || m.images?.length || m.files?.length ? { ...m, text } : undefined;
  };
  const manifest = manifestFromJson(data.spool);
  if (manifest && p.spool) {
    const kept = p.spool.load(id, manifest);
    const m: InboundMessage = {
      ...base,
      ...(kept.images.length ? { images: kept.images } : {}),
      ...(kept.files.length ? { files: kept.files } : {}),
    };
    return withLost(m, kept.lost.length ? lostAttachmentsText(kept.lost) : '');
  }
  if (data.fetching !== true) {
    const lost = notesFromJson(data.attachments);
    return withLost(base, lost.length ? lostAttachmentsText(lost) : '');
  }
  const refetch = p.opts.adapter.refetchAttachments?.bind(p.opts.adapter);
  if (!refetch || data.ref === undefined) return withLost(base, CUT_DOWNLOAD_TEXT);
  const m = await resolveInboundAttachments({ ...base, fetchAttachments: () => refetch(data.ref) });
  const notes = attachmentNotes(m);
  const spooled = notes.length ? spoolAttachments(p, id, m) : undefined;
  const { fetching: _fetching, ref: _ref, ...rest } = data;
  p.ledger.amendInbound(
    id,
    JSON.stringify({
      ...rest,
      text: m.text,
      ...(notes.length ? { attachments: notes } : {}),
      ...(spooled ? { spool: spooled } : {}),
    }),
  );
  return withLost(m, '');
}

/**
 * The images a turn run again after a restart is given (those its first run was given), and the
 * text naming the ones no longer in the spool ('' when none was lost).
 */
export function promptImagesOf(
  p: SpoolHost,
  row: Pick<DeliveryRecord, 'id' | 'inbound'>,
): { images: NonNullable<InboundMessage['images']>; lostText: string } {
  const inbound = inboundOf(row);
  // the row's record of the message is damaged: what the spool holds cannot be matched to it
  if (!inbound && p.spool?.has(row.id)) return { images: [], lostText: UNREADABLE_RECORD_TEXT };
  // images its first run had that the spool could not keep
  const unkept = notesFromJson(inbound?.prompt_images_unkept);
  if (unkept.length) return { images: [], lostText: lostAttachmentsText(unkept) };
  const manifest = manifestFromJson(inbound?.spool);
  const pick = Array.isArray(inbound?.prompt_images)
    ? (inbound.prompt_images as unknown[]).filter((i): i is number => Number.isInteger(i))
    : [];
  if (!manifest || !pick.length || !p.spool) return { images: [], lostText: '' };
  const got = p.spool.load(row.id, manifest, pick);
  return { images: got.images, lostText: got.lost.length ? lostAttachmentsText(got.lost) : '' };
}
