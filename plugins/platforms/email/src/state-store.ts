/**
 * What the email adapter remembers across restarts, in one JSON file (0600, replaced atomically):
 * its position in the mailbox (UIDVALIDITY and the highest UID handed to the pipeline, so a
 * restart neither answers a mail again nor skips one) and, for the latest inbound mails, the
 * facts a reply needs (subject and References), so a reply retried by the delivery ledger after a
 * restart is still threaded. Without a file (tests, `standaloneSender`) it lives in memory.
 * The delivery ledger stays the source of truth: a mail seen again is dropped there by its
 * Message-ID.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from '@hermes/core/util';

/** Facts of one inbound mail needed to answer it. */
export interface MailFacts {
  subject: string;
  /** The mail's References (root first), without its own id. */
  references: string[];
  /** The pipeline took it (accepted, or dropped as a duplicate): a copy is a redelivery. */
  taken?: boolean;
}

/** Mails remembered for threading (oldest forgotten first). */
export const MAX_REMEMBERED_MAILS = 2_000;

interface StateFile {
  uidValidity?: string;
  lastUid?: number;
  mails?: Record<string, MailFacts>;
}

/** The adapter's remembered state. */
export class EmailState {
  uidValidity: string | undefined;
  lastUid = 0;
  private readonly mails = new Map<string, MailFacts>();

  /** @param file where it is kept; undefined: memory only. */
  constructor(private readonly file?: string) {
    if (!file) return;
    let data: StateFile;
    try {
      data = JSON.parse(readFileSync(file, 'utf8')) as StateFile;
    } catch {
      return; // no file yet, or unreadable: start fresh (the ledger drops mail seen before)
    }
    if (typeof data.uidValidity === 'string') this.uidValidity = data.uidValidity;
    if (typeof data.lastUid === 'number' && Number.isInteger(data.lastUid) && data.lastUid >= 0)
      this.lastUid = data.lastUid;
    for (const [id, f] of Object.entries(data.mails ?? {})) {
      if (f && typeof f.subject === 'string' && Array.isArray(f.references))
        this.mails.set(id, {
          subject: f.subject,
          references: f.references.filter((r) => typeof r === 'string'),
          ...(f.taken === true ? { taken: true } : {}),
        });
    }
  }

  /** True when a position in the mailbox is known. */
  get positioned(): boolean {
    return this.uidValidity !== undefined;
  }

  /** The facts of an inbound mail by Message-ID. */
  mail(id: string): MailFacts | undefined {
    return this.mails.get(id);
  }

  /** Remembers the facts of an inbound mail (not saved until `save`). */
  remember(id: string, facts: MailFacts): void {
    this.mails.delete(id);
    this.mails.set(id, facts);
    while (this.mails.size > MAX_REMEMBERED_MAILS) this.mails.delete(this.mails.keys().next().value!);
  }

  /** Marks a remembered inbound mail as taken by the pipeline (not saved until `save`). */
  markTaken(id: string): void {
    const f = this.mails.get(id);
    if (f) f.taken = true;
  }

  /** Writes the file (no-op in memory). @throws on a write error. */
  save(): void {
    if (!this.file) return;
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    const data: StateFile = {
      ...(this.uidValidity !== undefined ? { uidValidity: this.uidValidity } : {}),
      lastUid: this.lastUid,
      mails: Object.fromEntries(this.mails),
    };
    writeFileAtomic(this.file, `${JSON.stringify(data)}\n`, 0o600);
  }
}
