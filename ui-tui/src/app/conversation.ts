/**
 * The TUI's conversation commands: `/undo`, `/retry`, `/rewind [files]`, `/fork [pick]` and
 * `/steer TEXT` (also the composer's steer key). The daemon does the work (`session.undo` …);
 * here the TUI asks, offers pickers, puts a rewound prompt back into the composer and switches to
 * a fork. Every attached TUI redraws from the daemon's `session.rewound` event.
 */
import type { StoredMessage } from '@hermes/core/protocol';
import { formatAge, oneLine, truncate } from '../components/format.js';
import type { PickerItem } from '../components/Picker.js';
import type { SessionController } from './controller.js';

/** What the conversation commands need of the App. */
export interface ConversationUi {
  openPicker(title: string, items: PickerItem[], onPick: (index: number) => void): void;
  /** Replaces the composer's text (the rewound prompt, for editing); absent: shown as a notice. */
  fillComposer?(text: string): void;
}

/** User messages offered by `/rewind` and `/fork pick`, at most. */
export const REWIND_PICK_LIMIT = 200;

/** Opening of a context summary (a user message the compression wrote; never a rewind target). */
const SUMMARY_OPENING = '[Context summary:';

/** The prompts a conversation can go back to, newest first: user messages, no guidance or summary. */
export function rewindTargets(messages: StoredMessage[]): StoredMessage[] {
  return messages
    .filter(
      (m) => m.role === 'user' && m.status !== 'guidance' && !(m.content ?? '').startsWith(SUMMARY_OPENING),
    )
    .reverse();
}

/** Picker rows for prompts: their first line, and their age. */
export function promptItems(prompts: StoredMessage[], now = Date.now()): PickerItem[] {
  return prompts.map((m) => ({
    label: truncate(oneLine(m.content ?? ''), 70),
    detail: formatAge(m.timestamp, now),
  }));
}

function sessionOf(ctl: SessionController): string {
  const id = ctl.state.sessionId;
  if (!id) throw new Error('no session attached');
  return id;
}

function putBack(ui: ConversationUi, ctl: SessionController, text: string): void {
  if (!text) return;
  if (ui.fillComposer) ui.fillComposer(text);
  else ctl.notice(`Your prompt was:\n${text}`);
}

/** Asks the user to pick a past prompt of this session; `then` gets it. */
async function pickPrompt(
  ctl: SessionController,
  ui: ConversationUi,
  title: string,
  then: (m: StoredMessage) => Promise<void>,
): Promise<void> {
  const sessionId = sessionOf(ctl);
  const r = await ctl.client.request('session.history', { session_id: sessionId, limit: REWIND_PICK_LIMIT });
  const prompts = rewindTargets(r.messages);
  if (prompts.length === 0) return ctl.notice('No prompt to go back to in this session yet.', 'warn');
  ui.openPicker(title, promptItems(prompts), (i) => {
    const m = prompts[i];
    if (m) void then(m).catch((e: unknown) => ctl.notice(`${title}: ${(e as Error).message}`, 'error'));
  });
}

/** `/undo`: drops the last prompt and everything after it. */
export async function undo(ctl: SessionController): Promise<void> {
  await ctl.client.request('session.undo', { session_id: sessionOf(ctl) });
}

/** `/retry`: drops the last exchange and runs its prompt again. */
export async function retry(ctl: SessionController): Promise<void> {
  await ctl.client.request('session.retry', { session_id: sessionOf(ctl) });
}

/** `/rewind [files]`: pick a prompt; the conversation goes back to before it, its text to the composer. */
export async function rewind(ctl: SessionController, ui: ConversationUi, args: string): Promise<void> {
  if (args && args !== 'files') return ctl.notice('Usage: /rewind [files]', 'warn');
  const files = args === 'files';
  await pickPrompt(
    ctl,
    ui,
    files ? 'Rewind conversation and files to before' : 'Rewind to before',
    async (m) => {
      const r = await ctl.client.request('session.rewind', {
        session_id: sessionOf(ctl),
        message_id: m.id,
        ...(files ? { files: true } : {}),
      });
      putBack(ui, ctl, r.text);
    },
  );
}

/** `/fork [pick]`: a new session with this conversation (up to a picked prompt), then switch to it. */
export async function fork(ctl: SessionController, ui: ConversationUi, args: string): Promise<void> {
  if (args && args !== 'pick') return ctl.notice('Usage: /fork [pick]', 'warn');
  const run = async (messageId?: number): Promise<void> => {
    const from = sessionOf(ctl);
    const r = await ctl.client.request('session.fork', {
      session_id: from,
      ...(messageId !== undefined ? { message_id: messageId } : {}),
    });
    await ctl.resume(r.session.id);
    const title = r.session.title ? ` “${r.session.title}”` : '';
    ctl.notice(
      `Forked: you are now in ${r.session.id}${title}. The original is kept: /resume ${r.parent_session_id} goes back.`,
    );
    if (r.text !== undefined) putBack(ui, ctl, r.text);
  };
  if (args === 'pick') return pickPrompt(ctl, ui, 'Fork from before', (m) => run(m.id));
  return run();
}

/** `/steer TEXT` and the steer key: guidance for the running turn (a prompt when none runs). */
export async function steer(ctl: SessionController, text: string): Promise<void> {
  const t = text.trim();
  if (!t) return ctl.notice('Usage: /steer TEXT (or type it and press Ctrl+S while a turn runs)', 'warn');
  await ctl.client.request('session.steer', { session_id: sessionOf(ctl), text: t });
}
