/**
 * A file edit waiting for approval (`approvals.edits: ask`) as ACP tool-call content: a `diff`
 * item (absolute path, old and new text of the changed region, read off the unified diff's hunks)
 * that editors show as a diff view, and the unified diff itself as text for those that do not.
 */
import { isAbsolute, resolve } from 'node:path';
import type { ToolCallContent } from '@agentclientprotocol/sdk';
import { text } from './event-map.js';

/**
 * The old and new text of a unified diff's hunks, in order (context lines in both, `-` lines in
 * the old, `+` lines in the new); hunks are separated by a `…` line. Headers are skipped.
 */
export function hunkTexts(diff: string): { oldText: string; newText: string } {
  const oldLines: string[] = [];
  const newLines: string[] = [];
  let inHunk = false;
  for (const line of diff.split('\n')) {
    if (line.startsWith('@@')) {
      if (inHunk) {
        oldLines.push('…');
        newLines.push('…');
      }
      inHunk = true;
      continue;
    }
    if (!inHunk || line.startsWith('\\')) continue;
    const body = line.slice(1);
    if (line.startsWith('-')) oldLines.push(body);
    else if (line.startsWith('+')) newLines.push(body);
    else if (line.startsWith(' ')) {
      oldLines.push(body);
      newLines.push(body);
    }
  }
  return { oldText: oldLines.join('\n'), newText: newLines.join('\n') };
}

/**
 * The permission request's content for an edit.
 * @param cwd the session's folder: a relative path is resolved against it (ACP wants absolute ones).
 */
export function editContent(edit: { path: string; diff: string }, cwd: string): ToolCallContent[] {
  const path = isAbsolute(edit.path) ? edit.path : resolve(cwd, edit.path);
  const { oldText, newText } = hunkTexts(edit.diff);
  return [
    { type: 'diff', path, oldText: oldText || null, newText },
    { type: 'content', content: text(edit.diff) },
  ];
}
