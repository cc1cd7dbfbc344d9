/**
 * What one platform's message pipeline is made with (`PipelineOptions`), and the stored transcript
 * it reads for restart recovery (`TranscriptReader`). Re-exported by pipeline.ts.
 */
import type { HermesConfig } from '../config/schema.js';
import type { Secrets } from '../config/secrets.js';
import type { HermesHome } from '../home/home.js';
import type { MessageRecord } from '../state/types.js';
import type { PlatformAdapter } from './adapter.js';
import type { AgentBackend } from './backend.js';
import type { ChatSessionIndex } from './chat-sessions.js';
import type { DeliveryLedger } from './delivery-ledger.js';
import type { HookRegistry } from './hooks.js';
import type { Transcriber } from './inbound-files.js';
import type { PairingStore } from './pairing.js';
import type { PlatformEntry } from './registry.js';

/** Everything one pipeline works with. */
export interface PipelineOptions {
  profile: string;
  home: HermesHome;
  entry: PlatformEntry;
  adapter: PlatformAdapter;
  backend: AgentBackend;
  store: ChatSessionIndex;
  pairing: PairingStore;
  hooks: HookRegistry;
  /** The profile's current config (read per message: allow-lists change without a restart). */
  config: () => HermesConfig;
  /** The profile's current secrets. */
  secrets: () => Secrets;
  /** Working directory of new sessions when `platforms.<p>.cwd` is not set. */
  defaultCwd: string;
  log: (line: string) => void;
  /**
   * The platform's delivery ledger (the daemon's is in state.db). Default: one in memory, whose
   * replies are tried once and not kept across restarts.
   */
  ledger?: DeliveryLedger;
  /**
   * The stored transcript, for where a turn begins and what a turn left after a crash
   * (pipeline-recovery.ts). Without it nothing is recovered.
   */
  transcript?: TranscriptReader;
  /**
   * Speech-to-text of received voice notes and audio files; without it a voice note is named in
   * the turn's text as "not transcribed".
   */
  transcribe?: Transcriber;
}

/** Reads the stored transcript of sessions (`SessionDB` satisfies it). */
export interface TranscriptReader {
  getMessages(sessionId: string, opts: { after?: number; limit?: number }): MessageRecord[];
  /** Id of the session's newest message (0 when none). */
  lastMessageId(sessionId: string): number;
}
