/**
 * Block Kit for questions: an approval or clarify question as a `section` with its text and an
 * `actions` block of buttons, and the same message once answered (buttons gone, a context line
 * saying who answered what). Button `value`s carry a short token of the adapter's question table
 * and the choice's index — never the request id or the command, so nothing a user could forge
 * names another question. Text from the model is escaped (mrkdwn.ts) and cut to Block Kit's
 * limits (a section's text: 3,000 characters; a button label: 75).
 */
import { CHAT_DIFF_MAX_CHARS, type ApprovalPrompt, type ClarifyPrompt } from '@hermes/core';
import { escapeMrkdwn } from './mrkdwn.js';

/** Most characters of a section's text (Block Kit's limit). */
export const SECTION_MAX_CHARS = 3_000;

/** Prefix of the `action_id` of every button of the adapter (`hermes_approval_0` …). */
export const ACTION_PREFIX = 'hermes_';

/** Button labels of the approval choices. */
export const APPROVAL_LABELS: Record<string, string> = {
  once: '✅ Approve once',
  session: 'Approve for session',
  always: 'Always approve',
  deny: '❌ Deny',
};

/** What an answered approval reads like. */
const APPROVAL_DONE: Record<string, string> = {
  once: '✅ Approved once',
  session: '✅ Approved for this session',
  always: '✅ Always approved',
  deny: '❌ Denied',
};

/** A Block Kit block (the subset built here). */
export type Block = Record<string, unknown>;

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Escaped text in a code block, cut so the whole stays within `max` characters. */
function codeBlock(text: string, max: number): string {
  const body = escapeMrkdwn(text.replace(/```/g, "'''"));
  return `\`\`\`\n${cut(body, max - 8)}\n\`\`\``;
}

/** The section text of an approval question (mrkdwn, within SECTION_MAX_CHARS). */
export function approvalSection(prompt: ApprovalPrompt): string {
  const head = prompt.diff !== undefined ? '*Approval needed to write:*' : '*Approval needed to run:*';
  const reason = prompt.description ? `\n*Reason:* ${escapeMrkdwn(cut(prompt.description, 300))}` : '';
  const diff =
    prompt.diff !== undefined ? `\n${codeBlock(prompt.diff.slice(0, CHAT_DIFF_MAX_CHARS), 1_400)}` : '';
  const room = SECTION_MAX_CHARS - head.length - reason.length - diff.length - 2;
  return `${head}\n${codeBlock(prompt.command, Math.max(200, room))}${reason}${diff}`;
}

/** Blocks of an approval question: its section and one button per choice. */
export function approvalBlocks(prompt: ApprovalPrompt, token: string): Block[] {
  return [
    { type: 'section', text: { type: 'mrkdwn', text: approvalSection(prompt) } },
    {
      type: 'actions',
      block_id: `hermes_q_${token}`,
      elements: prompt.choices.map((c, i) => ({
        type: 'button',
        action_id: `${ACTION_PREFIX}approval_${i}`,
        text: { type: 'plain_text', text: APPROVAL_LABELS[c] ?? c, emoji: true },
        value: `${token}:${i}`,
        ...(c === 'once' ? { style: 'primary' } : c === 'deny' ? { style: 'danger' } : {}),
      })),
    },
  ];
}

/** The section text of a clarify question. */
export function clarifySection(prompt: ClarifyPrompt): string {
  return cut(`*Question:* ${escapeMrkdwn(prompt.question)}`, SECTION_MAX_CHARS);
}

/** Blocks of a clarify question with choices: the question and one button per choice (at most 25). */
export function clarifyBlocks(prompt: ClarifyPrompt, token: string): Block[] {
  const choices = (prompt.choices ?? []).slice(0, 25);
  return [
    { type: 'section', text: { type: 'mrkdwn', text: clarifySection(prompt) } },
    {
      type: 'actions',
      block_id: `hermes_q_${token}`,
      elements: choices.map((c, i) => ({
        type: 'button',
        action_id: `${ACTION_PREFIX}clarify_${i}`,
        text: { type: 'plain_text', text: cut(c, 75) || '(empty)', emoji: false },
        value: `${token}:${i}`,
      })),
    },
    {
      type: 'context',
      elements: [{ type: 'mrkdwn', text: 'Or reply with your own answer.' }],
    },
  ];
}

/**
 * The blocks of a question once settled: the question's section kept, the buttons replaced by a
 * line saying what was chosen and by whom.
 * @param who already formatted (`<@U123>`, or a description like `in a terminal`).
 */
export function answeredBlocks(
  kind: 'approval' | 'clarify',
  section: string,
  choice: string | null,
  who: string,
): Block[] {
  const what =
    choice === null
      ? '⏹ No answer (the question was withdrawn)'
      : kind === 'approval'
        ? (APPROVAL_DONE[choice] ?? `Answered: ${escapeMrkdwn(choice)}`)
        : `Answered: ${escapeMrkdwn(cut(choice, 500))}`;
  return [
    { type: 'section', text: { type: 'mrkdwn', text: section } },
    { type: 'context', elements: [{ type: 'mrkdwn', text: `${what} ${who}`.trim() }] },
  ];
}

/** Parses a button's `value` (`<token>:<index>`). */
export function parseButtonValue(value: string | undefined): { token: string; index: number } | undefined {
  const m = /^([a-z0-9]+):(\d+)$/.exec(value ?? '');
  return m ? { token: m[1]!, index: Number(m[2]) } : undefined;
}
