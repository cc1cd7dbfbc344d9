/**
 * The composer's `@` completion as a hook: while the cursor is in an `@` token it asks the
 * `ReferenceSource` for matches (without waiting: keys are echoed at once and the popup fills
 * in when the daemon answers) and, while its popup is open, takes Up/Down (choose), Tab
 * (accept), Enter (accept, unless the token already is the chosen path) and Esc (close).
 * The composer calls `handleKey` first with its current editor state; false means "not mine".
 */
import type { Key } from 'ink';
import { useEffect, useReducer, useRef } from 'react';
import type { EditorState } from '../components/editor.js';
import { acceptReference, activeAtToken, KEYWORD_REFS, type AtToken } from './at-refs.js';
import type { ReferenceSource } from './reference-source.js';

/** One line of the popup. */
export interface RefItem {
  /** Inserted after `@`. */
  path: string;
  kind: 'file' | 'folder' | 'keyword';
  bytes?: number;
  description?: string;
}

/** What the composer needs from the hook. */
export interface RefCompletion {
  items: RefItem[];
  selected: number;
  open: boolean;
  /** Handles a key while the popup is open. @returns true when it took the key. */
  handleKey(s: EditorState, input: string, key: Key): boolean;
}

const NONE: RefCompletion = { items: [], selected: 0, open: false, handleKey: () => false };

/** The items for a token from the newest answer (an answer to a shorter query still shows). */
export function itemsFor(token: AtToken | null, source: ReferenceSource): RefItem[] {
  if (!token) return [];
  const q = token.query.toLowerCase();
  const keywords: RefItem[] = q.includes('/')
    ? []
    : KEYWORD_REFS.filter((k) => k.ref.startsWith(q)).map((k) => ({
        path: k.ref,
        kind: 'keyword' as const,
        description: k.description,
      }));
  const r = source.result;
  const files: RefItem[] =
    r && (r.query === token.query || token.query.startsWith(r.query))
      ? r.items.map((i) => ({
          path: i.path,
          kind: i.kind,
          ...(i.bytes !== undefined ? { bytes: i.bytes } : {}),
        }))
      : [];
  return [...keywords, ...files];
}

/**
 * `@` completion for the composer.
 * @param update the composer's own state setter (used to accept and to restore unsent text).
 */
export function useReferenceCompletion(
  source: ReferenceSource | undefined,
  state: EditorState,
  update: (next: EditorState) => void,
): RefCompletion {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const selectedRef = useRef(0);
  const closedFor = useRef<string | null>(null);
  const updateRef = useRef(update);
  updateRef.current = update;
  const textRef = useRef(state.text);
  textRef.current = state.text;

  useEffect(() => (source ? source.subscribe(rerender) : undefined), [source]);
  useEffect(
    () =>
      source?.onRestore((text) => {
        // a message the daemon refused comes back, unless something new was typed meanwhile
        if (textRef.current === '') updateRef.current({ text, cursor: text.length });
      }),
    [source],
  );
  const token = source ? activeAtToken(state.text, state.cursor) : null;
  const query = token?.query ?? null;
  useEffect(() => {
    if (!source) return;
    if (query === null) source.cancel();
    else source.query(query);
  }, [source, query]);

  if (!source) return NONE;
  const view = (s: EditorState): { token: AtToken | null; items: RefItem[]; open: boolean } => {
    const t = activeAtToken(s.text, s.cursor);
    const items = itemsFor(t, source);
    return { token: t, items, open: t !== null && items.length > 0 && closedFor.current !== s.text };
  };
  const now = view(state);
  const selected = Math.min(selectedRef.current, Math.max(0, now.items.length - 1));
  if (!now.open) selectedRef.current = 0;

  const handleKey = (s: EditorState, input: string, key: Key): boolean => {
    const v = view(s);
    if (!v.open || !v.token) return false;
    const sel = Math.min(selectedRef.current, v.items.length - 1);
    const take = (item: RefItem): void => {
      if (item.kind === 'file') source.accept(item.path);
      selectedRef.current = 0;
      updateRef.current(acceptReference(s.text, v.token!, item.path));
    };
    if (key.escape) {
      closedFor.current = s.text;
      rerender();
      return true;
    }
    if (key.upArrow || key.downArrow) {
      const n = v.items.length;
      selectedRef.current = (sel + (key.upArrow ? n - 1 : 1)) % n;
      rerender();
      return true;
    }
    if (key.tab) {
      take(v.items[sel]!);
      return true;
    }
    if (key.return && !key.shift && !key.meta && input !== '\n') {
      if (v.items[sel]!.path === v.token.query) return false;
      take(v.items[sel]!);
      return true;
    }
    return false;
  };
  return { items: now.items, selected, open: now.open, handleKey };
}

/**
 * The references a composer text will attach, for its chips: the token being completed is left
 * out while its popup is open (it is not chosen yet).
 */
export function composerReferences(
  source: ReferenceSource,
  s: EditorState,
  popupOpen: boolean,
): ReturnType<ReferenceSource['attachments']> {
  const t = popupOpen ? activeAtToken(s.text, s.cursor) : null;
  return source.attachments(t ? s.text.slice(0, t.start) + s.text.slice(t.end) : s.text);
}
