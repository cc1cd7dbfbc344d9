/** One finished transcript item: a user prompt, an assistant reply (markdown), a tool line or a notice. */
import { Box, Text } from 'ink';
import { splitAttachedText } from '@hermes/core/constants';
import { renderMarkdown } from '../markdown/render.js';
import { REPLY_STATUS_NOTES } from '../state/reply-parts.js';
import type { TranscriptItem } from '../state/types.js';
import { cleanText, wrapWords } from './format.js';
import { theme } from './theme.js';
import { ReferenceChips } from './ReferenceChips.js';
import { ToolLine } from './ToolLine.js';
import { AttachmentChips } from './AttachmentChips.js';

/** Props of `MessageView`. */
export interface MessageViewProps {
  item: TranscriptItem;
  width: number;
  /** Show tool details. */
  toolDetails?: boolean;
}

/** Renders one transcript item. */
export function MessageView({ item, width, toolDetails = false }: MessageViewProps): React.JSX.Element {
  switch (item.kind) {
    case 'user': {
      // attached references show as chips under the typed text, not as their content
      const { text, chips } = splitAttachedText(item.text);
      return (
        <Box flexDirection="column" marginTop={1}>
          <Box>
            <Text color={theme.user} bold>
              {item.guidance ? '↳ guidance: ' : '› '}
            </Text>
            <Box flexShrink={1}>
              <Text color={theme.user}>{cleanText(text)}</Text>
            </Box>
          </Box>
          <ReferenceChips chips={chips} />
          {item.attachments?.length ? (
            <AttachmentChips items={item.attachments} width={width} indent={2} />
          ) : null}
        </Box>
      );
    }
    case 'assistant': {
      // a part printed while the reply streamed has no note: the reply's last item carries it
      const note = item.part ? undefined : REPLY_STATUS_NOTES[item.status];
      return (
        <Box flexDirection="column" marginTop={1}>
          <Text>{renderMarkdown(item.text, width - 2)}</Text>
          {note ? <Text color={theme.muted}>{note}</Text> : null}
        </Box>
      );
    }
    case 'tool':
      return <ToolLine tool={item} expanded={toolDetails} width={width} />;
    case 'notice':
      return (
        <Text color={item.tone === 'error' ? theme.error : item.tone === 'warn' ? theme.warn : theme.muted}>
          {wrapWords(cleanText(item.text), width)}
        </Text>
      );
  }
}
