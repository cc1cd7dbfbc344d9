/** Reading the text out of a message's content (a string, or content parts with images). */
import type { ChatMessage } from './types.js';

/** What an image part reads as where only text fits (summaries, stored copies). */
export const IMAGE_PLACEHOLDER = '[image]';

/** Rough token cost of one image part in a context estimate (providers charge ~85–1,500). */
export const IMAGE_TOKEN_ESTIMATE = 800;

/**
 * The text of a message's content: the string itself, or the parts' text joined, each image part
 * read as `IMAGE_PLACEHOLDER`.
 */
export function contentText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => ('text' in p ? p.text : IMAGE_PLACEHOLDER)).join('');
}

/** Number of image parts in a message's content. */
export function imagePartCount(content: ChatMessage['content']): number {
  return Array.isArray(content) ? content.filter((p) => p.type === 'image_url').length : 0;
}
