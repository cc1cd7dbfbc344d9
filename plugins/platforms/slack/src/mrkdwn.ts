/**
 * Text conversion between the model's Markdown and Slack's `mrkdwn`, and from Slack's encoded
 * message text back to plain text.
 *
 * Outbound (`toMrkdwn`), only the simple, unambiguous forms: `**bold**`/`__bold__` → `*bold*`,
 * `*italic*` → `_italic_`, `~~strike~~` → `~strike~`, `[label](https://…)` → `<https://…|label>`, `# Heading` → `*Heading*`,
 * `* item` → `• item`. Code spans and fenced blocks are kept as they are. `&`, `<` and `>` are
 * escaped everywhere (Slack's rule), so text from the model can never form a mention, a
 * `<!channel>` broadcast or a link other than the ones converted here.
 *
 * Inbound (`fromSlackText`): `<@U123>` → `@U123` (or `@name` when Slack gave one), `<#C1|general>`
 * → `#general`, `<https://x|label>` → `label (https://x)`, `<!here>` → `@here`, entities decoded.
 */

/** Slack's three escaped characters. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Converts one line-run of Markdown outside code to mrkdwn (already escaped). */
function convertProse(text: string): string {
  const links: string[] = [];
  // links first, with placeholders, so their URLs are not touched by the emphasis rules
  let out = text.replace(/\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)/g, (_m, label: string, url: string) => {
    links.push(`<${escapeMrkdwn(url)}|${escapeMrkdwn(label).replace(/\|/g, '/')}>`);
    return `\uE000${links.length - 1}\uE001`;
  });
  out = escapeMrkdwn(out);
  // bold goes through a marker (\uE002) so the italic rule below does not take it for italic
  out = out
    .replace(/^(\s*)[*-]\s+/gm, '$1• ')
    .replace(/^#{1,6}\s+(.+?)\s*#*$/gm, '\uE002$1\uE002')
    .replace(/\*\*(?=\S)(.+?)(?<=\S)\*\*/g, '\uE002$1\uE002')
    .replace(/__(?=\S)(.+?)(?<=\S)__/g, '\uE002$1\uE002')
    .replace(/(?<![*\w])\*(?=[^\s*])([^*\n]*?[^\s*])\*(?![*\w])/g, '_$1_')
    .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, '~$1~')
    .replace(/\uE002/g, '*');
  return out.replace(/\uE000(\d+)\uE001/g, (m, i: string) => links[Number(i)] ?? m);
}

/**
 * Markdown (as models write it) → Slack mrkdwn. Code (fenced blocks and inline spans) is kept,
 * only escaped; everything else gets the simple conversions of the module comment.
 */
export function toMrkdwn(markdown: string): string {
  const parts = markdown.split(/(```[\s\S]*?(?:```|$)|`[^`\n]+`)/g);
  return parts
    .map((part, i) => {
      if (i % 2 === 0) return convertProse(part);
      // a fence's language tag is not understood by Slack: drop it
      const fenced = /^```[\w+-]*\n/.exec(part);
      return escapeMrkdwn(fenced ? `\`\`\`\n${part.slice(fenced[0].length)}` : part);
    })
    .join('');
}

/**
 * Slack message text → plain text for the model. Mentions of `botUserId` are removed (they only
 * address the bot); other mentions, channels, links and broadcasts are written out.
 */
export function fromSlackText(text: string, botUserId?: string): string {
  let out = text;
  if (botUserId) out = out.replace(new RegExp(`<@${botUserId}(?:\\|[^>]*)?>[\\s:,]*`, 'g'), '');
  out = out
    .replace(/<@([UW][A-Z0-9]+)\|([^>]+)>/g, '@$2')
    .replace(/<@([UW][A-Z0-9]+)>/g, '@$1')
    .replace(/<#([CG][A-Z0-9]+)\|([^>]*)>/g, (_m, id: string, name: string) => `#${name || id}`)
    .replace(/<#([CG][A-Z0-9]+)>/g, '#$1')
    .replace(/<!(here|channel|everyone)(?:\|[^>]*)?>/g, '@$1')
    .replace(/<!subteam\^[A-Z0-9]+\|([^>]+)>/g, '$1')
    .replace(/<!date\^[^|>]*\|([^>]+)>/g, '$1')
    .replace(/<((?:https?|mailto):[^|>]+)\|([^>]+)>/g, (_m, url: string, label: string) =>
      label === url || `mailto:${label}` === url ? label : `${label} (${url})`,
    )
    .replace(/<((?:https?|mailto):[^>]+)>/g, '$1');
  return out.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').trim();
}
