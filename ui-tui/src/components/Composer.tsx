/**
 * The composer: Enter sends; Shift+Enter, Alt+Enter, `\`+Enter and Ctrl+J insert a newline; a
 * paste of many lines stays one message (bracketed paste, or a multi-line chunk); Up/Down move
 * between lines, then walk the input history; slash commands complete in a popup (Tab or Enter
 * accepts, Up/Down choose, Esc closes). Queued prompts are shown above it.
 *
 * Keys it does not use are handed to the App: Esc (`onEscape`), Ctrl+C (`onCtrlC`, after
 * clearing a non-empty composer when idle), Ctrl+D on an empty composer (`onExit`), Ctrl+G (the
 * text goes to `$EDITOR` through `onExternalEdit` and comes back edited).
 */
import type { QueuedPrompt } from '@hermes/core/protocol';
import { Box, Text, useInput, type Key } from 'ink';
import { useRef, useState } from 'react';
import { applyCompletion, completeCommands } from '../commands/complete.js';
import { COMMANDS, findCommand, type SlashCommand } from '../commands/table.js';
import type { InputHistory } from '../state/input-history.js';
import { CompletionPopup } from './CompletionPopup.js';
import * as ed from './editor.js';
import { isSteerKey } from './steer-key.js';
import { cleanText, oneLine, stripControls, truncate } from './format.js';
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
  /** The steer key (app/steer-key.ts): sends the text as guidance for the running turn. */
  onSteer?: (text: string) => void;
  /** Set to a function that replaces the text (a rewound prompt put back for editing). */
  fillRef?: { current: ((text: string) => void) | null };
}

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
      setSel(0);
      setClosed(false);
      propsRef.current.onChange?.(next.text);
    }
    stateRef.current = next;
    setState(next);
  };

  const submit = (text: string): void => {
    if (!text.trim()) return;
    propsRef.current.history?.add(text);
    update(ed.EMPTY);
    propsRef.current.onSubmit(text);
  };

  if (props.fillRef) props.fillRef.current = (text) => update(ed.editorOf(cleanInput(text)));

  const handle = (input: string, key: Key): void => {
    const s = stateRef.current;
    const props = propsRef.current;
    const matches = popupFor(s.text, closedRef.current);
    const popupOpen = matches.length > 0;
    const selected = Math.min(selectedRef.current, Math.max(0, matches.length - 1));
    // bracketed paste: everything between the markers is text, newlines included
    if (paste.current !== null) {
      if (input.endsWith(PASTE_END)) {
        const text = cleanInput(paste.current + input.slice(0, -PASTE_END.length));
        paste.current = null;
        update(ed.insert(s, text));
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
      if (s.text.trim() && props.onSteer) {
        props.history?.add(s.text);
        update(ed.EMPTY);
        props.onSteer(s.text);
      }
      return;
    }
    if (key.ctrl && input === 'o') {
      props.onToggleDetails?.();
      return;
    }
    if (key.ctrl && input === 'g') {
      const edited = props.onExternalEdit?.(s.text);
      if (edited !== null && edited !== undefined) update(ed.editorOf(cleanInput(edited)));
      return;
    }
    if (key.escape) {
      if (popupOpen) setClosed(true);
      else props.onEscape?.();
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
      if (entry !== null) update(ed.editorOf(entry));
      return;
    }
    if (key.leftArrow) return update(key.ctrl || key.meta ? ed.moveWord(s, -1) : ed.moveChar(s, -1));
    if (key.rightArrow) return update(key.ctrl || key.meta ? ed.moveWord(s, 1) : ed.moveChar(s, 1));
    if (key.home || (key.ctrl && input === 'a')) return update(ed.moveLineEdge(s, 'start'));
    if (key.end || (key.ctrl && input === 'e')) return update(ed.moveLineEdge(s, 'end'));
    if (key.backspace || key.delete) {
      // terminals send DEL (0x7f) for Backspace, which Ink reports as `delete`
      return update(key.meta ? ed.deleteWordBack(s) : ed.backspace(s));
    }
    if (key.ctrl && input === 'w') return update(ed.deleteWordBack(s));
    if (key.ctrl && input === 'u') return update(ed.killToLineStart(s));
    if (key.ctrl && input === 'k') return update(ed.killToLineEnd(s));
    if (key.ctrl || key.tab || !input) return;
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
    update(ed.insert(s, text));
  };

  if (props.feedRef) props.feedRef.current = handle; // handle reads refs: any render's one will do
  useInput(handle, { isActive: isActive && (props.listen ?? true) });

  const lines = (state.text ? withCursor(state) : '').split('\n');
  return (
    <Box flexDirection="column" width={width}>
      {(props.queued ?? []).map((q) => (
        <Text key={q.prompt_id} color={theme.muted} wrap="truncate-end">
          ⏳ queued: {truncate(oneLine(cleanText(q.text)), width - 12)}
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
            <Text color={theme.muted}>{props.placeholder ?? 'Type a message · / for commands'}</Text>
          </Text>
        )}
      </Box>
      {popupOpen && isActive ? <CompletionPopup items={matches} selected={selected} width={width} /> : null}
    </Box>
  );
}
