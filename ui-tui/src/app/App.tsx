/**
 * The top-level Ink app: the printed transcript (`<Static>`), then the live part — streaming
 * reply, running tools, an approval card or question, a picker — then the composer and the
 * status bar. Keys: Esc or Ctrl+C during a turn interrupt it; Ctrl+C twice on an empty composer
 * or Ctrl+D exit; exiting never stops a running turn (the daemon keeps it). While an approval
 * card is up it reads the keys first and hands every key it does not take to the composer. After
 * a deliberate daemon stop, `r` on an empty composer starts the daemon again (daemon-life.ts).
 */
import { Box, Text, useApp, useInput, useStdout, type Key } from 'ink';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { CardClock } from '../components/approval-gate.js';
import { ApprovalCard } from '../components/ApprovalCard.js';
import { BoundedColumn, ClippedTail } from '../components/BoundedColumn.js';
import { ClarifyPrompt } from '../components/ClarifyPrompt.js';
import { Composer } from '../components/Composer.js';
import { useColumns, useNow, useRows } from '../components/hooks.js';
import { ModelSetup } from '../components/ModelSetup.js';
import { Picker, type PickerItem } from '../components/Picker.js';
import { StatusBar } from '../components/StatusBar.js';
import { StreamingMessage } from '../components/StreamingMessage.js';
import { theme } from '../components/theme.js';
import { ToolLine } from '../components/ToolLine.js';
import { HeldItems, heldItems, Transcript } from '../components/Transcript.js';
import { isMarkdownReady } from '../markdown/render.js';
import { probeLocalServers, probeServer, type FoundServer } from '../setup/probe.js';
import type { InputHistory } from '../state/input-history.js';
import { runningToolsView } from '../state/session-reducer.js';
import { liveText } from '../state/reply-parts.js';
import { errorText, type SessionController } from './controller.js';
import type { EditResult } from './external-editor.js';
import { CLEAR_SCREEN, useResizeRedraw } from './resize-redraw.js';
import { DIFF_CARD_LINES } from '../components/DiffView.js';
import { runInput } from './slash.js';
import { steer } from './conversation.js';
import { START_DAEMON_KEY } from './daemon-life.js';
import { useToolDetails } from './tool-details.js';
import { useImagePasteKey } from './image-paste-key.js';
import { PendingChips } from '../components/AttachmentChips.js';

/** Props of `App`. */
export interface AppProps {
  controller: SessionController;
  /** Input history for Up/Down (the caller loads and persists it). */
  history?: InputHistory;
  /** Called with every sent input (to persist the history). */
  onSubmitted?: (text: string) => void;
  /**
   * Writes raw bytes to the terminal (OSC 52, clearing the screen). Default: through Ink, which
   * erases the live part, writes the bytes and draws the live part again at once (after a screen
   * clear, the composer and status bar are back without waiting for a key).
   */
  writeRaw?: (data: string) => void;
  /** Window for a second Ctrl+C to exit, ms (default 2000). */
  exitWindowMs?: number;
  /** Called when the user exits, before the app unmounts. */
  onExit?: () => void;
  /** Ctrl+G: edits text in `$EDITOR` (runTui passes `editExternally` with the terminal handover). */
  editExternally?: (text: string) => EditResult;
  /** Ctrl+Z: suspends the TUI, resolves once the shell continues it (runTui passes `suspendTui`). */
  suspend?: () => Promise<void>;
  /** Model setup probes (default: the usual local servers on loopback, and `GET <url>/models`). */
  probeLocal?: () => Promise<FoundServer[]>;
  probeUrl?: (baseUrl: string, key?: string) => Promise<string[] | Error>;
  /** The approval card's clock (tests pass a manual one). */
  approvalClock?: CardClock;
}

interface PickerState {
  title: string;
  items: PickerItem[];
  onPick: (index: number) => void;
}

/** The app. */
export function App({
  controller,
  history,
  onSubmitted,
  writeRaw,
  exitWindowMs = 2000,
  onExit,
  editExternally,
  suspend,
  probeLocal = () => probeLocalServers(),
  probeUrl = (url, key) => probeServer(url, 3000, key),
  approvalClock,
}: AppProps): React.JSX.Element {
  const store = controller.store;
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const app = useApp();
  const { write: inkWrite } = useStdout();
  const exit = useCallback(() => {
    onExit?.();
    app.exit();
  }, [app, onExit]);
  const cols = useColumns();
  const rows = useRows();
  // a resize clears the terminal: the transcript is printed again at the new width
  const redrawKey = useResizeRedraw();
  const [picker, setPicker] = useState<PickerState | null>(null);
  // Ctrl+O: tool output under tool lines (the transcript is printed again)
  const details = useToolDetails();
  const toolDetails = details.shown;
  const [exitArmed, setExitArmed] = useState(false);
  const armedAt = useRef(0);
  const now = useNow(1000, state.tools.length > 0);

  const request = state.requests[0];
  const setup = state.setup;
  // An approval card routes the keys: those it does not take go on to the composer (fed, in
  // order), so the composer keeps the keyboard's text while the card is up.
  const approvalUp = request?.kind === 'approval';
  const composerActive = (!request || approvalUp) && !picker && !setup;
  const composerFeed = useRef<((input: string, key: Key) => void) | null>(null);
  // A stopped daemon: `r` on an empty composer starts it (daemon-life.ts); every other key, and
  // `r` once something is typed, goes on to the composer, in order.
  const daemonDown = state.daemon === 'stopped' || state.daemon === 'failed';
  const startKeyLive = daemonDown && composerActive && !approvalUp;
  const draft = useRef(0);
  const [, setDraftShown] = useState(0);
  const onDraftChange = (text: string): void => {
    draft.current = text.length;
    if (approvalUp) setDraftShown(text.length); // the card shows the length; else no re-render
  };
  const width = Math.max(20, cols);
  // markdown loads on first need: what waits for it to print shows in the live part meanwhile
  // (HeldItems), and the commit that prints it takes it from there
  const [markdownLoaded, setMarkdownLoaded] = useState(false);
  const markdownReady = markdownLoaded || isMarkdownReady();
  const onMarkdownReady = useCallback(() => setMarkdownLoaded(true), []);

  useEffect(() => {
    if (!exitArmed) return;
    const t = setTimeout(() => setExitArmed(false), exitWindowMs);
    return () => clearTimeout(t);
  }, [exitArmed, exitWindowMs]);

  const interrupt = useCallback(() => {
    void controller.interrupt();
  }, [controller]);

  const onCtrlC = useCallback(
    ({ empty }: { empty: boolean }) => {
      if (store.getState().busy) return interrupt();
      if (!empty) return;
      const t = Date.now();
      if (armedAt.current && t - armedAt.current <= exitWindowMs) return exit();
      armedAt.current = t;
      setExitArmed(true);
    },
    [store, interrupt, exit, exitWindowMs],
  );

  const onEscape = useCallback(() => {
    if (store.getState().busy) interrupt();
  }, [store, interrupt]);

  useInput(
    (input, key) => {
      const plain = !key.ctrl && !key.meta && !key.shift;
      if (plain && input === START_DAEMON_KEY && draft.current === 0 && controller.canStartDaemon) {
        void controller.startDaemon();
        return;
      }
      composerFeed.current?.(input, key);
    },
    { isActive: startKeyLive },
  );

  useImagePasteKey(controller, composerActive);

  // Global keys while the composer does not have the keyboard (question, picker).
  useInput(
    (input, key) => {
      if (key.ctrl && input === 'c') {
        if (store.getState().busy) interrupt();
        else onCtrlC({ empty: true });
      } else if (key.ctrl && input === 'd') {
        exit();
      }
    },
    { isActive: !composerActive },
  );

  // `/detach`: the last frame shows this line instead of the composer, then the app exits
  const [finalLine, setFinalLine] = useState<string | null>(null);
  useEffect(() => {
    if (finalLine !== null) exit();
  }, [finalLine, exit]);

  const composerFill = useRef<((text: string) => void) | null>(null);
  const ui = {
    exit: (line?: string) => (line ? setFinalLine(line) : exit()),
    writeRaw: writeRaw ?? inkWrite,
    openPicker: (title: string, items: PickerItem[], onPick: (i: number) => void) =>
      setPicker({ title, items, onPick }),
    fillComposer: (text: string) => composerFill.current?.(text),
  };
  // a rewound conversation is printed again from the top (controller.reloadTranscript)
  controller.screenReset = () => ui.writeRaw(CLEAR_SCREEN);
  const onSteer = (text: string): void => {
    steer(controller, text).catch((e: unknown) => controller.notice(`/steer: ${errorText(e)}`, 'error'));
  };

  const onExternalEdit = editExternally
    ? (text: string): string | null => {
        const r = editExternally(text);
        if ('error' in r) {
          controller.notice(r.error, 'warn');
          return null;
        }
        return r.text;
      }
    : undefined;

  const onSuspend = (): void => {
    suspend?.().catch((e: unknown) => controller.notice(`Could not suspend: ${errorText(e)}`, 'warn'));
  };

  const onSubmit = (text: string): void => {
    armedAt.current = 0;
    setExitArmed(false);
    onSubmitted?.(text);
    runInput(text, controller, ui).catch((e: unknown) => controller.notice(errorText(e), 'error'));
  };

  // a first guess of the rows left for the stream (BoundedColumn enforces the limit)
  const reserved =
    5 + state.queued.length + (state.tools.length > 0 ? state.tools.length + 1 : 0) + (request ? 10 : 0);
  const streamLines = Math.max(3, rows - reserved - 4);

  return (
    <>
      <Transcript
        key={`${redrawKey}.${details.key}`}
        items={state.items}
        nextN={state.nextN}
        width={width}
        toolDetails={toolDetails}
        markdownReady={markdownReady}
        onMarkdownReady={onMarkdownReady}
      />
      {/* the live part stays shorter than the terminal (see BoundedColumn): the stream gives way */}
      <BoundedColumn maxHeight={rows - 1} width={width}>
        <HeldItems items={heldItems(state.items, markdownReady)} width={width} toolDetails={toolDetails} />
        {state.streaming ? (
          <ClippedTail>
            <StreamingMessage
              // the reply's finished blocks are printed in the transcript: only the rest is live
              text={liveText(state.streaming)}
              reasoning={state.streaming.reasoning}
              width={width}
              maxLines={streamLines}
              throttleMs={0} // the store paces the stream (controller.ts); its end shows at once
            />
          </ClippedTail>
        ) : null}
        <Box flexDirection="column" flexShrink={0}>
          {state.tools.length > 0 ? (
            <Box flexDirection="column" marginTop={state.streaming ? 0 : 1}>
              {runningToolsView(state).map((t) => (
                <ToolLine key={t.toolId} tool={t} now={now} width={width} expanded={toolDetails} />
              ))}
            </Box>
          ) : null}
          {request?.kind === 'approval' ? (
            <ApprovalCard
              key={request.requestId}
              params={request.params}
              width={width}
              waiting={state.requests.length - 1}
              isActive={composerActive}
              onPassKey={(input, key) => composerFeed.current?.(input, key)}
              draftChars={draft.current}
              maxDiffLines={Math.max(4, Math.min(DIFF_CARD_LINES, rows - 18))}
              {...(approvalClock ? { clock: approvalClock } : {})}
              onAnswer={(choice) => controller.answerApproval(request.requestId, choice)}
            />
          ) : null}
          {request?.kind === 'clarify' ? (
            <ClarifyPrompt
              key={request.requestId}
              params={request.params}
              width={width}
              onAnswer={(answer) => controller.answerClarify(request.requestId, answer)}
            />
          ) : null}
          {setup ? (
            <ModelSetup
              profile={setup.profile}
              width={width}
              onDone={(choice) => controller.completeModelSetup(choice)}
              onSkip={() => controller.skipModelSetup()}
              probeLocal={probeLocal}
              probeUrl={probeUrl}
            />
          ) : null}
          {picker ? (
            <Picker
              title={picker.title}
              items={picker.items}
              width={width}
              onCancel={() => setPicker(null)}
              onPick={(i) => {
                setPicker(null);
                picker.onPick(i);
              }}
            />
          ) : null}
          {details.hint ? <Text color={theme.muted}>{details.hint}</Text> : null}
          {exitArmed ? (
            <Text color={theme.warn}>Press Ctrl+C again to exit (a running turn keeps running).</Text>
          ) : null}
          <Box marginTop={1} flexDirection="column">
            <PendingChips pending={controller.attachments} width={width} />
            {finalLine !== null ? <Text color={theme.muted}>{finalLine}</Text> : null}
            {setup || finalLine !== null ? null : (
              <Composer
                isActive={composerActive}
                listen={!approvalUp && !startKeyLive}
                feedRef={composerFeed}
                onChange={onDraftChange}
                busy={state.busy}
                width={width}
                {...(history ? { history } : {})}
                queued={state.queued}
                onSubmit={onSubmit}
                references={controller.references}
                argumentSource={controller.modelCatalog}
                onSteer={onSteer}
                fillRef={composerFill}
                onEscape={onEscape}
                onCtrlC={onCtrlC}
                onExit={exit}
                onToggleDetails={details.toggle}
                {...(onExternalEdit ? { onExternalEdit } : {})}
                {...(suspend ? { onSuspend } : {})}
                placeholder={
                  state.busy ? 'Type to queue a message · Ctrl+S steers the turn · Esc interrupts' : undefined
                }
              />
            )}
            {finalLine !== null ? null : (
              <StatusBar
                profile={state.profile}
                model={state.session?.model || state.defaultModel}
                contextTokens={state.usage?.contextTokens ?? null}
                contextWindow={state.usage?.contextWindow ?? null}
                {...(state.usage?.turnCost !== undefined ? { turnCost: state.usage.turnCost } : {})}
                {...(state.usage?.sessionCost !== undefined ? { sessionCost: state.usage.sessionCost } : {})}
                cwd={state.session?.cwd ?? null}
                title={state.session?.title ?? null}
                connection={state.connection}
                daemon={state.daemon}
                clients={state.session?.clients ?? null}
                busy={state.busy}
                activity={state.activity}
                turnStartedAt={state.turnStartedAt}
                background={state.backgroundRunning}
                width={width}
              />
            )}
          </Box>
        </Box>
      </BoundedColumn>
    </>
  );
}
