/**
 * A reply too long for chat messages, sent as a file: a Markdown file `reply.md` with the whole
 * reply and a one-line caption that says what it is and how it begins.
 */

/** Most characters of the reply's opening quoted in the caption. */
export const SUMMARY_OPENING_CHARS = 160;

/** The file and caption of a long reply. */
export interface LongReplyFile {
  name: string;
  data: Buffer;
  mime: string;
  caption: string;
}

/**
 * The file form of `text`: `reply.md` (UTF-8) with the caption
 * `Long reply (12,345 characters), attached as reply.md. It begins: "…"`.
 */
export function longReplyFile(text: string): LongReplyFile {
  const first =
    text
      .trim()
      .split('\n')
      .find((l) => l.trim()) ?? '';
  const chars = [...first.trim()];
  const opening =
    chars.length > SUMMARY_OPENING_CHARS
      ? `${chars.slice(0, SUMMARY_OPENING_CHARS - 1).join('')}…`
      : chars.join('');
  return {
    name: 'reply.md',
    data: Buffer.from(text, 'utf8'),
    mime: 'text/markdown',
    caption: `Long reply (${text.length.toLocaleString('en-US')} characters), attached as reply.md.${
      opening ? ` It begins: ${opening}` : ''
    }`,
  };
}

/** What a streamed message is edited to when the reply it began goes out as a file. */
export const STREAMED_AS_FILE_TEXT = '(The reply is long: it follows as a file.)';
