/**
 * Runs what the composer sends: plain text becomes a prompt; slash commands run here (screen,
 * pickers, session switching) or on the daemon (`slash.exec`, also for unknown commands).
 */
import type { SessionInfo } from '@hermes/core/protocol';
import { loadTmuxBuffer, planCopy } from '../commands/clipboard.js';
import { parseInput } from '../commands/parse.js';
import { helpText } from '../commands/help.js';
import { formatAge, formatTokens, oneLine, truncate } from '../components/format.js';
import type { PickerItem } from '../components/Picker.js';
import { errorText, type SessionController } from './controller.js';
import * as conversation from './conversation.js';
import { imageCommand, pasteCommand } from './image-commands.js';

/** What the App offers the command runner. */
export interface SlashUi {
  /**
   * Leaves the TUI (the daemon keeps any running turn). `finalLine` replaces the composer and the
   * status bar in the last frame, which stays on the screen.
   */
  exit(finalLine?: string): void;
  /** Writes raw bytes to the terminal (OSC 52, screen clear). */
  writeRaw(data: string): void;
  /** Opens a picker; `onPick` gets the chosen index. */
  openPicker(title: string, items: PickerItem[], onPick: (index: number) => void): void;
  /** Replaces the composer's text (`/rewind` puts the prompt back for editing). */
  fillComposer?(text: string): void;
}

/** Messages `/history` prints by default, and at most. */
export const HISTORY_DEFAULT = 50;
export const HISTORY_MAX = 500;

/** Picker rows for sessions: title, age, preview, message count. */
export function sessionItems(sessions: SessionInfo[], now = Date.now()): PickerItem[] {
  return sessions.map((s) => ({
    label: s.title || s.preview || s.id,
    detail: [
      // where the session comes from: tui, cli, cron, irc, telegram … (platform sessions too)
      s.source,
      formatAge(s.started_at, now),
      `${s.message_count} msgs`,
      ...(s.busy ? ['busy'] : []),
      ...(s.title && s.preview && !titleFromPreview(s.title, s.preview)
        ? [truncate(oneLine(s.preview), 40)]
        : []),
    ].join(' · '),
  }));
}

/** Whether a title is the first prompt itself (a tui/cli session's title is made from it). */
function titleFromPreview(title: string, preview: string): boolean {
  const head = title.replace(/(…|\.\.\.)$/, '').trim();
  return head !== '' && oneLine(preview).trim().startsWith(head);
}

/** The last line after `/detach`: whether a turn goes on in the daemon, and with which model. */
export function detachLine(busy: boolean, model: string | null): string {
  const m = model ? ` (model ${model})` : '';
  return busy
    ? `Detached — the turn continues in the daemon${m}; its reply is kept with the session.`
    : `Detached — the session stays in the daemon${m}.`;
}

/** Handles one submitted input. */
export async function runInput(text: string, ctl: SessionController, ui: SlashUi): Promise<void> {
  const parsed = parseInput(text);
  if (parsed.kind === 'text') return ctl.submit(parsed.text);
  if (parsed.kind === 'unknown') return ctl.slashExec(parsed.raw);
  const { command, args } = parsed;
  try {
    switch (command.name) {
      case 'help':
        return ctl.notice(helpText(await daemonHelp(ctl)));
      case 'new':
        return await ctl.newSession();
      case 'sessions': {
        const sessions = await ctl.listSessions();
        ui.openPicker('Sessions', sessionItems(sessions), (i) => {
          const s = sessions[i];
          if (s) void ctl.resume(s.id).catch((e: unknown) => ctl.notice(errorText(e), 'error'));
        });
        return;
      }
      case 'resume':
        if (!args) return ctl.notice('Usage: /resume ID|title', 'warn');
        return await ctl.resume(args);
      case 'model':
        return await modelCommand(args, ctl, ui);
      case 'setup':
        if (!(await ctl.checkModelSetup(true)))
          ctl.notice('The daemon cannot tell the model settings.', 'warn');
        return;
      case 'history': {
        const n = args ? Number(args) : HISTORY_DEFAULT;
        if (!Number.isInteger(n) || n < 1 || n > HISTORY_MAX) {
          return ctl.notice(`Usage: /history [N] (1–${HISTORY_MAX}, default ${HISTORY_DEFAULT})`, 'warn');
        }
        return await ctl.loadOlder(n);
      }
      case 'profile':
        return await profileCommand(args, ctl, ui);
      case 'undo':
        return await conversation.undo(ctl);
      case 'retry':
        return await conversation.retry(ctl);
      case 'rewind':
        return await conversation.rewind(ctl, ui, args);
      case 'fork':
        return await conversation.fork(ctl, ui, args);
      case 'steer':
        return await conversation.steer(ctl, args);
      case 'clear': {
        const cleared = ctl.clear();
        ui.writeRaw('\u001b[2J\u001b[3J\u001b[H');
        return await cleared;
      }
      case 'copy': {
        const reply = ctl.state.lastReply;
        if (!reply) return ctl.notice('Nothing to copy yet.', 'warn');
        const plan = planCopy(reply, 'the last reply');
        if (plan.sequence) ui.writeRaw(plan.sequence);
        if (plan.tmuxBuffer && !loadTmuxBuffer(reply)) {
          return ctl.notice(
            'Not copied: OSC 52 cannot pass this tmux and its paste buffer refused the text.',
            'warn',
          );
        }
        return ctl.notice(plan.message, plan.tone);
      }
      case 'detach': {
        const line = detachLine(ctl.state.busy, ctl.state.session?.model || ctl.state.defaultModel);
        await ctl.detach({ keepScreen: true });
        return ui.exit(line);
      }
      case 'image':
        return await imageCommand(args, ctl);
      case 'paste':
        return await pasteCommand(ctl);
      case 'quit':
        return ui.exit();
      case 'usage': {
        const u = ctl.state.usage;
        if (u?.contextTokens != null) {
          const of = u.contextWindow ? ` of ${formatTokens(u.contextWindow)}` : '';
          ctl.notice(`Context: ${formatTokens(u.contextTokens)}${of} tokens in use.`);
        }
        return await ctl.slashExec(parsed.raw);
      }
      default:
        return await ctl.slashExec(parsed.raw);
    }
  } catch (err) {
    ctl.notice(`/${command.name}: ${errorText(err)}`, 'error');
  }
}

/** The daemon's `/help` answer (its commands), or null when it cannot be asked now. */
async function daemonHelp(ctl: SessionController): Promise<string | null> {
  const sessionId = ctl.state.sessionId;
  if (!sessionId || ctl.state.connection !== 'connected') return null;
  try {
    const r = await ctl.client.request('slash.exec', { session_id: sessionId, command: '/help' });
    return r.handled ? r.output : null;
  } catch {
    return null;
  }
}

async function modelCommand(args: string, ctl: SessionController, ui: SlashUi): Promise<void> {
  const sessionId = ctl.state.sessionId;
  const set = async (model: string, provider?: string): Promise<void> => {
    const r = await ctl.client.request('model.set', {
      model,
      ...(provider ? { provider } : {}),
      ...(sessionId ? { session_id: sessionId } : {}),
    });
    ctl.modelCatalog.invalidate();
    // the daemon says what changed (this session from its next turn, the default for new ones)
    // the daemon's message ends with the warning too: it is shown once, as a warning
    const message = r.message ?? `Model: ${r.model}`;
    ctl.notice(r.warning ? message.replace(`\n${r.warning}`, '') : message);
    if (r.warning) ctl.notice(r.warning, 'warn');
    await ctl.refreshModel();
  };
  // `/model PROVIDER MODEL` names the provider explicitly; `/model provider/model` lets the daemon
  // read it (an aggregator's vendor/model ids stay its models)
  const two = /^(\S+)\s+(\S+)$/.exec(args);
  if (two) return set(two[2]!, two[1]!);
  if (args) return set(args);
  const { models, current } = await ctl.client.request('model.list', {});
  ui.openPicker(
    'Model',
    models.map((m) => ({
      label: `${m.id === current ? '● ' : '  '}${m.id}`,
      detail: [m.provider, ...(m.context_window ? [`${formatTokens(m.context_window)} ctx`] : [])].join(
        ' · ',
      ),
    })),
    (i) => {
      const m = models[i];
      if (m) void set(m.id).catch((e: unknown) => ctl.notice(errorText(e), 'error'));
    },
  );
}

async function profileCommand(args: string, ctl: SessionController, ui: SlashUi): Promise<void> {
  const { profiles, active } = await ctl.client.request('profile.list', {});
  if (args) {
    if (profiles.some((p) => p.name === args)) return ctl.switchProfile(args);
    const names = profiles.map((p) => p.name).join(', ');
    return ctl.notice(
      `No profile named "${args}" (profiles: ${names}); hermes profile create ${args} makes one`,
      'error',
    );
  }
  ui.openPicker(
    'Profile',
    profiles.map((p) => ({ label: `${p.name === active ? '● ' : '  '}${p.name}`, detail: p.model ?? '' })),
    (i) => {
      const p = profiles[i];
      if (p && p.name !== active)
        void ctl.switchProfile(p.name).catch((e: unknown) => ctl.notice(errorText(e), 'error'));
    },
  );
}
