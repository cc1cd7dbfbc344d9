/**
 * The composer: Enter sends; Shift+Enter, Alt+Enter, `\`+Enter and Ctrl+J insert a newline; a
 * paste of many lines stays one message (bracketed paste, or a multi-line chunk); Up/Down move
 * between lines, then walk the input history; slash commands complete in a popup (Tab or Enter
 * accepts, Up/Down choose, Esc closes). Queued prompts are shown above it. A long paste shows as a
 * chip (`[pasted 42 lines]`, see paste-chips.ts) and is sent in full.
 *
 * Editing keys (readline's): Ctrl+A/E line start/end, Alt+B/F and Ctrl+←/→ a word left/right,
 * Backspace and Delete (back/forward), Ctrl+W and Alt+Backspace delete a word back, Alt+D and
 * Ctrl+Delete a word forward, Ctrl+U/K to the line start/end, Ctrl+Z suspends (`onSuspend`).
 *
 * Keys it does not use are handed to the App: Esc (`onEscape`), Ctrl+C (`onCtrlC`, after
 * clearing a non-empty composer when idle), Ctrl+D on an empty composer (`onExit`), Ctrl+G (the
 * text goes to `$EDITOR` through `onExternalEdit` and comes back edited).
 */
import { splitAttachedText } from '@hermes/core/constants';
import type { QueuedPrompt } from '@hermes/core/protocol';
import { Box, Text, useInput, type Key } from 'ink';
import { useRef, useState, useSyncExternalStore } from 'react';
import { applyCompletion, completeCommands } from '../commands/complete.js';
import type { ArgCompletion } from '../commands/model-complete.js';
import { COMMANDS, findCommand, type SlashCommand } from '../commands/table.js';
import type { InputHistory } from '../state/input-history.js';
import { ArgumentPopup, CompletionPopup } from './CompletionPopup.js';
import type { ReferenceSource } from '../refs/reference-source.js';
import { composerReferences, useReferenceCompletion } from '../refs/use-reference-completion.js';
import { pendingChip, ReferenceChips } from './ReferenceChips.js';
import { ReferencePopup } from './ReferencePopup.js';
import { editKeyOf, splitControlKeys } from './composer-keys.js';
import * as ed from './editor.js';
import { isSteerKey } from './steer-key.js';
import { cleanText, oneLine, stripControls, truncate } from './format.js';
import { addChip, chipBefore, expandChips, isLongPaste, type PasteChips } from './paste-chips.js';
import { useRawInput } from './raw-input.js';
import { theme } from './theme.js';

/** Props of `Composer`. */
export interface ComposerProps {
  onSubmit: (text: string) => void;
  history?: InputHistory;
  /** Listen to keys (false while a card or picker has the keyboard). */
  isActive?: boolean;
  /**
   * Read keys from the terminal itself (default true). False while an approval card routes the
   * keys: it feeds the ones it does not take through `feedRef`, in order.
   */
  listen?: boolean;
  /** Set to the composer's key handler, for a card that feeds it keys. */
  feedRef?: { current: ((input: string, key: Key) => void) | null };
  /** A turn is running (Ctrl+C goes to the App even with text typed). */
  busy?: boolean;
  queued?: QueuedPrompt[];
  placeholder?: string;
  width?: number;
  commands?: readonly SlashCommand[];
  onEscape?: () => void;
  onCtrlC?: (info: { empty: boolean }) => void;
  onExit?: () => void;
  /** Ctrl+O. */
  onToggleDetails?: () => void;
  /** Called with the text whenever it changes. */
  onChange?: (text: string) => void;
  /**
   * Ctrl+G: edits the text in an external editor (`$EDITOR`) and returns the new text, or null
   * to keep it (the editor failed).
   */
  onExternalEdit?: (text: string) => string | null;
  /** `@` references: completion popup, chips, unsent text handed back (refs/). */
  references?: ReferenceSource;
  /** Ctrl+Z: suspend the TUI (job control); absent: the key does nothing. */
  onSuspend?: () => void;
  /** The steer key (app/steer-key.ts): sends the text as guidance for the running turn. */
  onSteer?: (text: string) => void;
  /** Set to a function that replaces the text (a rewound prompt put back for editing). */
  fillRef?: { current: ((text: string) => void) | null };
  /**
   * Completions of a command's argument (`/model provider/model`), shown in the popup when no
   * command name is being completed; `subscribe`/`snapshot` re-render when new ones arrive.
   */
  argumentSource?: ArgumentSource;
}

/** Where argument completions come from (commands/model-complete.ts `ModelCatalogSource`). */
export interface ArgumentSource {
  complete: (text: string) => ArgCompletion[];
  subscribe: (fn: () => void) => () => void;
  snapshot: () => number;
}

const NO_ARGUMENTS: ArgumentSource = { complete: () => [], subscribe: () => () => {}, snapshot: () => 0 };

const PASTE_START = '[200~';
const PASTE_END = '[201~';
/** xterm modifyOtherKeys Shift/Alt/Ctrl+Enter: ESC [27;<mod>;13~ (Ink strips the ESC). */
const MODIFIED_ENTER = /^\[27;\d+;13~$/;
const CURSOR_ON = '\u001b[7m';
const CURSOR_OFF = '\u001b[27m';

/** Typed or pasted text as the composer keeps it: CR/CRLF → LF, other control characters dropped. */
export function cleanInput(text: string): string {
  return stripControls(text.replace(/\r\n?/g, '\n'));
}

/** Renders text with an inverse-video cursor (an attribute, not a colour: shown under NO_COLOR too). */
export function withCursor(state: ed.EditorState): string {
  const { text, cursor } = state;
  const ch = text[cursor];
  if (ch === undefined || ch === '\n')
    return `${text.slice(0, cursor)}${CURSOR_ON} ${CURSOR_OFF}${text.slice(cursor)}`;
  const len = ch.charCodeAt(0) >= 0xd800 && ch.charCodeAt(0) <= 0xdbff ? 2 : 1;
  return `${text.slice(0, cursor)}${CURSOR_ON}${text.slice(cursor, cursor + len)}${CURSOR_OFF}${text.slice(cursor + len)}`;
}

/** The composer. */
export function Composer(props: ComposerProps): React.JSX.Element {
  const { isActive = true, width = 80, commands = COMMANDS } = props;
  const [state, setState] = useState<ed.EditorState>(ed.EMPTY);
  const [selected, setSelected] = useState(0);
  const [popupClosed, setPopupClosed] = useState(false);
  const paste = useRef<string | null>(null);
  // an argument completion was picked with Up/Down since the text last changed
  const picked = useRef(false);
  // long pastes shown as chips: label → full text (emptied with the composer)
  const chips = useRef<PasteChips>(new Map());
  // the raw sequence of the key being handled (before useInput: it must see each key first)
  const raw = useRawInput();
  // The key handler reads refs, not render-time values: keys can arrive before React re-subscribes
  // the handler of the latest render.
  const stateRef = useRef(state);
  const selectedRef = useRef(selected);
  const closedRef = useRef(popupClosed);
  const propsRef = useRef(props);
  propsRef.current = props;

  const popupFor = (text: string, closed: boolean): SlashCommand[] => {
    const m = closed ? [] : completeCommands(text, commands);
    return m.length === 1 && `/${m[0]!.name}` === text.trim() ? [] : m;
  };
  const matches = popupFor(state.text, popupClosed);
  const popupOpen = matches.length > 0;
  const args = props.argumentSource ?? NO_ARGUMENTS;
  useSyncExternalStore(args.subscribe, args.snapshot);
  const argsFor = (text: string, closed: boolean, commandsOpen: boolean): ArgCompletion[] =>
    closed || commandsOpen ? [] : (propsRef.current.argumentSource ?? NO_ARGUMENTS).complete(text);
  const argMatches = argsFor(state.text, popupClosed, popupOpen);

  const setSel = (i: number): void => {
    selectedRef.current = i;
    setSelected(i);
  };
  const setClosed = (c: boolean): void => {
    closedRef.current = c;
    setPopupClosed(c);
  };
  const update = (next: ed.EditorState): void => {
    if (next.text !== stateRef.current.text) {
      picked.current = false;
      if (!next.text) chips.current.clear();
      setSel(0);
      setClosed(false);
      propsRef.current.onChange?.(next.text);
    }
    stateRef.current = next;
    setState(next);
  };

  const refs = useReferenceCompletion(props.references, state, update);

  /** Sends the text (chips expanded) to `send`, the prompt by default, and empties the composer. */
  const submit = (typed: string, send: (text: string) => void = propsRef.current.onSubmit): void => {
    if (!typed.trim()) return;
    const text = expandChips(typed, chips.current);
    propsRef.current.history?.add(text);
    update(ed.EMPTY);
    send(text);
  };
  /** Replaces the whole text (history, editor): text of its own, no chips. */
  const replaceText = (text: string): void => {
    chips.current.clear();
    update(ed.editorOf(text));
  };
  /** Inserts pasted text: a long paste as a chip. */
  const insertPaste = (s: ed.EditorState, text: string): void => {
    update(ed.insert(s, isLongPaste(text) ? addChip(chips.current, text) : text));
  };

  if (props.fillRef) props.fillRef.current = (text) => update(ed.editorOf(cleanInput(text)));

  const handle = (input: string, key: Key): void => {
    const s = stateRef.current;
    const props = propsRef.current;
    const matches = popupFor(s.text, closedRef.current);
    const popupOpen = matches.length > 0;
    const argItems = argsFor(s.text, closedRef.current, popupOpen);
    const selected = Math.min(
      selectedRef.current,
      Math.max(0, Math.max(matches.length, argItems.length) - 1),
    );
    // bracketed paste: everything between the markers is text, newlines included
    if (paste.current !== null) {
      if (input.endsWith(PASTE_END)) {
        const text = cleanInput(paste.current + input.slice(0, -PASTE_END.length));
        paste.current = null;
        insertPaste(s, text);
      } else {
        paste.current += key.return ? '\n' : key.tab ? '\t' : input;
      }
      return;
    }
    if (input.startsWith(PASTE_START)) {
      paste.current = '';
      const rest = input.slice(PASTE_START.length);
      if (rest) handle(rest, { ...key, return: false });
      return;
    }
    if (key.ctrl && input === 'c') {
      if (!props.busy && s.text) {
        props.history?.reset();
        update(ed.EMPTY);
        return;
      }
      props.onCtrlC?.({ empty: s.text.length === 0 });
      return;
    }
    if (key.ctrl && input === 'd') {
      if (!s.text) props.onExit?.();
      else update(ed.deleteForward(s));
      return;
    }
    if (isSteerKey(input, key)) {
      if (props.onSteer) submit(s.text, props.onSteer);
      return;
    }
    if (key.ctrl && input === 'o') {
      props.onToggleDetails?.();
      return;
    }
    if (key.ctrl && input === 'g') {
      const edited = props.onExternalEdit?.(expandChips(s.text, chips.current));
      if (edited !== null && edited !== undefined) replaceText(cleanInput(edited));
      return;
    }
    if (refs.handleKey(s, input, key)) return;
    if (key.escape) {
      if (popupOpen || argItems.length > 0) setClosed(true);
      else props.onEscape?.();
      return;
    }
    // `/model provider/model` completion: Up/Down choose, Tab fills; Enter takes the choice only
    // after Up/Down picked it (else it sends what was typed: a new id that is the prefix of a
    // known one must stay sendable)
    const plainEnter = key.return && !key.shift && !key.meta;
    if (argItems.length > 0 && (key.upArrow || key.downArrow || key.tab || (plainEnter && picked.current))) {
      const item = argItems[selected]!;
      if (key.upArrow || key.downArrow) {
        const n = argItems.length;
        setSel((selected + (key.upArrow ? n - 1 : 1)) % n);
        picked.current = true;
      } else if (plainEnter && item.final) submit(item.text);
      else update(ed.editorOf(item.text));
      return;
    }
    if (popupOpen && (key.upArrow || key.downArrow)) {
      const n = matches.length;
      setSel((selected + (key.upArrow ? n - 1 : 1)) % n);
      return;
    }
    if (popupOpen && key.tab) {
      update(ed.editorOf(applyCompletion(matches[selected]!)));
      return;
    }
    const newline = (key.return && (key.shift || key.meta)) || input === '\n' || MODIFIED_ENTER.test(input);
    if (newline) {
      update(ed.insert(s, '\n'));
      return;
    }
    if (key.return) {
      if (s.text.slice(0, s.cursor).endsWith('\\')) {
        update(ed.insert(ed.backspace(s), '\n'));
        return;
      }
      if (popupOpen) {
        const cmd = matches[selected]!;
        const exact = findCommand(s.text.trim().slice(1));
        if (!exact || exact !== cmd) {
          if (cmd.argsRequired) update(ed.editorOf(applyCompletion(cmd)));
          else submit(`/${cmd.name}`);
          return;
        }
      }
      submit(s.text);
      return;
    }
    if (key.upArrow || key.downArrow) {
      const dir = key.upArrow ? -1 : 1;
      const moved = ed.moveLine(s, dir);
      if (moved) {
        update(moved);
        return;
      }
      const h = props.history;
      const entry = h ? (dir < 0 ? h.prev(s.text) : h.next()) : null;
      if (entry !== null) replaceText(entry);
      return;
    }
    const edit = editKeyOf(input, key, raw.current);
    switch (edit) {
      case 'word-left':
        return update(ed.moveWord(s, -1));
      case 'word-right':
        return update(ed.moveWord(s, 1));
      case 'backspace': {
        // a chip goes as a whole
        const chip = chipBefore(s.text, s.cursor, chips.current);
        if (!chip) return update(ed.backspace(s));
        chips.current.delete(chip);
        const at = s.cursor - chip.length;
        return update({ text: s.text.slice(0, at) + s.text.slice(s.cursor), cursor: at });
      }
      case 'delete-forward':
        return update(ed.deleteForward(s));
      case 'delete-word-back':
        return update(ed.deleteWordBack(s));
      case 'delete-word-forward':
        return update(ed.deleteWordForward(s));
      case 'suspend':
        return props.onSuspend?.();
      case null:
        break;
    }
    if (key.leftArrow) return update(ed.moveChar(s, -1));
    if (key.rightArrow) return update(ed.moveChar(s, 1));
    if (key.home || (key.ctrl && input === 'a')) return update(ed.moveLineEdge(s, 'start'));
    if (key.end || (key.ctrl && input === 'e')) return update(ed.moveLineEdge(s, 'end'));
    if (key.ctrl && input === 'u') return update(ed.killToLineStart(s));
    if (key.ctrl && input === 'k') return update(ed.killToLineEnd(s));
    // other Alt+letter keys (unbound) type nothing
    if (key.ctrl || key.tab || !input || (key.meta && /^[a-z]$/i.test(input))) return;
    // control keys read in one chunk with typed text are keys of their own, in order
    const keys = splitControlKeys(input, key);
    if (keys) {
      for (const k of keys) handle(k.input, k.key);
      return;
    }
    // Unbracketed chunks: keys typed faster than they are read ("hello⏎" arrives as one chunk,
    // e.g. over SSH or tmux send-keys) end in a single Enter, which sends; a chunk with newlines
    // inside is a paste (from a terminal without bracketed paste) and stays text.
    const text = cleanInput(input);
    const body = text.endsWith('\n') ? text.slice(0, -1) : text;
    if (body !== text && !body.includes('\n') && input.endsWith('\r')) {
      if (body) handle(body, { ...key, return: false });
      handle('\r', { ...key, return: true });
      return;
    }
    if (text.includes('\n')) return insertPaste(s, text);
    update(ed.insert(s, text));
  };

  if (props.feedRef) props.feedRef.current = handle; // handle reads refs: any render's one will do
  useInput(handle, { isActive: isActive && (props.listen ?? true) });

  const lines = (state.text ? withCursor(state) : '').split('\n');
  return (
    <Box flexDirection="column" width={width}>
      {(props.queued ?? []).map((q) => (
        <Text key={q.prompt_id} color={theme.muted} wrap="truncate-end">
          ⏳ queued: {truncate(oneLine(cleanText(splitAttachedText(q.text).text)), width - 12)}
        </Text>
      ))}
      <Box
        borderStyle="round"
        borderColor={isActive ? theme.accent : theme.border}
        paddingX={1}
        flexDirection="column"
      >
        {state.text ? (
          lines.map((l, i) => (
            <Text key={i}>
              <Text color={theme.accent}>{i === 0 ? '› ' : '  '}</Text>
              {l.replace(/\t/g, '  ')}
            </Text>
          ))
        ) : (
          <Text>
            <Text color={theme.accent}>› </Text>
            {isActive ? `${CURSOR_ON} ${CURSOR_OFF}` : ''}
            {/* one line, cut as the first frame cuts it (splash.ts): a wrapped placeholder moved the
                status bar a line down when the app took over from the first frame */}
            <Text color={theme.muted}>
              {(props.placeholder ?? 'Type a message · / for commands').slice(0, Math.max(0, width - 7))}
            </Text>
          </Text>
        )}
      </Box>
      {popupOpen && isActive ? <CompletionPopup items={matches} selected={selected} width={width} /> : null}
      {!popupOpen && argMatches.length > 0 && isActive ? (
        <ArgumentPopup
          items={argMatches}
          selected={Math.min(selected, argMatches.length - 1)}
          width={width}
        />
      ) : null}
      {refs.open && isActive ? (
        <ReferencePopup items={refs.items} selected={refs.selected} width={width} />
      ) : null}
      {props.references ? (
        <ReferenceChips
          chips={composerReferences(props.references, state, refs.open).map((a) =>
            pendingChip(a, (p) => props.references!.sizeOf(p)),
          )}
        />
      ) : null}
    </Box>
  );
}
