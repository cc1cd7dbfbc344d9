/**
 * What an adapter hands the message pipeline for each message received (`InboundMessage`), what
 * its lazily downloaded attachments give (`FetchedAttachments`), and what the pipeline decided
 * (`InboundReceipt`). Re-exported by adapter.ts.
 */
import type { ImageAttachmentInput } from '../protocol/attachments.js';
import type { MessageSource } from './source.js';

/** One inbound message. */
export interface InboundMessage {
  source: MessageSource;
  /** The text as the user wrote it (adapters strip only their own addressing, e.g. `nick:`). */
  text: string;
  /** A one-off conversation: its session is ended (and unindexed) once the reply is sent. */
  ephemeral?: boolean;
  /**
   * Instructions of an authenticated client (the API server's `system` messages, already inside
   * their delimited block), appended to the system prompt of the session this message creates;
   * ignored when the conversation's session exists already.
   */
  instructions?: string;
  /**
   * The conversation before this message as an authenticated client sent it (the API server's
   * stateless requests): stored as the first turns of the session this message creates, so the
   * model sees them as real turns; ignored when the conversation's session exists already.
   */
  history?: readonly SeedMessage[];
  /**
   * The platform's unique id of this message, when it has one (Telegram's chat + message id, a
   * webhook sender's `id`): a message whose key was seen before is dropped as a duplicate.
   */
  dedupeKey?: string;
  /**
   * Called once the pipeline decided whether it keeps the message (at most once): an adapter
   * whose sender waits for an answer (an HTTP request) answers only after it, so "accepted" means
   * the message is in the delivery ledger and gets an outcome even if the daemon is killed next.
   */
  onReceipt?: (receipt: InboundReceipt) => void;
  /**
   * Images sent with the message (base64 bytes), checked and stored by the backend like the
   * images of `prompt.submit`. For a model without vision a chat platform's images are saved as
   * files instead (pipeline-files.ts); on a platform with `authorization: 'adapter'` (programs:
   * the API server) the turn is refused (an `error` event of kind `invalid_request`). Kept in the
   * inbound spool until the message's turn has them, across a restart (inbound-spool.ts).
   */
  images?: ImageAttachmentInput[];
  /**
   * Files sent with the message that are not images given to the model (documents, voice notes,
   * images for a model without vision): saved by the pipeline under the session's media folder,
   * and the turn's text names each saved file (name, type, size, path) as untrusted data.
   */
  files?: InboundFile[];
  /**
   * Fetches the message's attachments from the platform (downloads of images, files, voice
   * notes): the pipeline calls it at most once, only after the sender is authorized and the
   * message recorded in the delivery ledger (a copy of a message taken before, by `dedupeKey`, is
   * dropped without it), and merges what it gives into `images`, `files` and the text
   * (inbound-attachments.ts). An adapter never downloads anything of an inbound message before
   * this is called, so an unauthorized sender makes the daemon fetch and store nothing. It should
   * not throw (a failed download is a note); when it does, the message goes on without them.
   */
  fetchAttachments?: () => Promise<FetchedAttachments>;
  /**
   * What `fetchAttachments` downloads, as plain JSON (file ids, URLs, a mail's UID — never a
   * token), kept in the message's ledger row until the download is done: a restart that cut it
   * downloads them again through `PlatformAdapter.refetchAttachments`.
   */
  attachmentsRef?: unknown;
}

/** What `InboundMessage.fetchAttachments` gave. */
export interface FetchedAttachments {
  /** Images for the model (as `InboundMessage.images`). */
  images?: ImageAttachmentInput[];
  /** Files to save (as `InboundMessage.files`). */
  files?: InboundFile[];
  /**
   * Lines appended to the message's text, one per line: attachments not taken (too big, failed)
   * or a stand-in text for a message of attachments only.
   */
  notes?: string[];
}

/** One file received with a chat message (`InboundMessage.files`). */
export interface InboundFile {
  /** File name as the sender gave it (untrusted: never used as a path as is). */
  name: string;
  /** MIME type as the platform reported it, when known. */
  mime?: string;
  /** The bytes. */
  data: Buffer;
  /** What it is, when the platform says: a voice note is stored with a "not transcribed" note. */
  kind?: 'document' | 'image' | 'audio' | 'voice' | 'video';
}

/** One earlier message of a conversation a client sent whole (`InboundMessage.history`). */
export interface SeedMessage {
  role: 'user' | 'assistant';
  /** Text of the message (a client's tool calls and results folded in as text). */
  content: string;
}

/**
 * What the pipeline did with an inbound message, decided before its turn runs:
 * - `accepted`: recorded (with `durable: true`, in state.db's delivery ledger); it will get an
 *   outcome (a reply, the model's silence, a visible error or a logged drop);
 * - `duplicate`: a message with the same platform id was accepted before; this copy is dropped;
 * - `refused`: not taken (`reason` names why: access denied, an empty message);
 * - `unavailable`: not taken now (the daemon is shutting down, the ledger could not be written,
 *   no decision in time): the sender should send it again later.
 */
export type InboundReceipt =
  | { kind: 'accepted'; id: string; durable: boolean }
  | { kind: 'duplicate'; id: string }
  | { kind: 'refused'; id: string; reason: string }
  | { kind: 'unavailable'; id: string; reason: string };
