/**
 * Approval and clarify prompts as message components (buttons). A button's `custom_id` is short
 * (`hermes:<kind>:<token>:<index>`, well under Discord's 100 characters); the token maps to the
 * question's request id and its values in a bounded table, so a press names only an index.
 */
import type { ApprovalChoiceName } from '@hermes/core';

/** Discord's button styles used here (API values). */
const STYLE = { primary: 1, secondary: 2, success: 3, danger: 4 } as const;

/** Most buttons in one action row, and rows in one message. */
const PER_ROW = 5;
const MAX_ROWS = 5;
/** Longest button label Discord takes, characters. */
const MAX_LABEL = 80;

/** Labels and styles of the approval choices. */
const APPROVAL_BUTTONS: Record<ApprovalChoiceName, { label: string; style: number }> = {
  once: { label: 'Approve once', style: STYLE.success },
  session: { label: 'Approve for session', style: STYLE.primary },
  always: { label: 'Always approve', style: STYLE.secondary },
  deny: { label: 'Deny', style: STYLE.danger },
};

/** The label of an approval choice (for the "answered" line). */
export function approvalLabel(choice: string): string {
  return APPROVAL_BUTTONS[choice as ApprovalChoiceName]?.label ?? choice;
}

/** One open prompt's buttons. */
export interface PromptButtons {
  kind: 'a' | 'c';
  requestId: string;
  values: string[];
}

/** A parsed button id. */
export interface ButtonRef {
  kind: 'a' | 'c';
  token: string;
  index: number;
}

/** Parses `hermes:<a|c>:<token>:<index>`; undefined for any other id. */
export function parseButtonId(customId: string): ButtonRef | undefined {
  const m = /^hermes:([ac]):([0-9a-z]+):(\d{1,2})$/.exec(customId);
  return m ? { kind: m[1] as 'a' | 'c', token: m[2]!, index: Number(m[3]) } : undefined;
}

/** A bounded table of open prompts' buttons (oldest dropped past `max`). */
export class ButtonTable {
  private readonly open = new Map<string, PromptButtons>();
  private next = 1;

  constructor(private readonly max = 500) {}

  /** Registers a prompt; returns its token. */
  add(prompt: PromptButtons): string {
    const token = (this.next++).toString(36);
    this.open.set(token, prompt);
    if (this.open.size > this.max) this.open.delete(this.open.keys().next().value!);
    return token;
  }

  /** The prompt and value a pressed button stands for, if still known. */
  resolve(ref: ButtonRef): { prompt: PromptButtons; value: string } | undefined {
    const prompt = this.open.get(ref.token);
    const value = prompt?.kind === ref.kind ? prompt.values[ref.index] : undefined;
    return prompt && value !== undefined ? { prompt, value } : undefined;
  }

  /** Forgets a prompt once answered. */
  close(token: string): void {
    this.open.delete(token);
  }
}

/** A raw action row (API shape) with buttons. */
export interface ActionRow {
  type: 1;
  components: Array<{ type: 2; style: number; label: string; custom_id: string }>;
}

function rows(buttons: ActionRow['components']): ActionRow[] {
  const out: ActionRow[] = [];
  for (let i = 0; i < buttons.length; i += PER_ROW)
    out.push({ type: 1, components: buttons.slice(i, i + PER_ROW) });
  return out;
}

/** The action rows of an approval prompt (one button per allowed choice, in the prompt's order). */
export function approvalRows(token: string, choices: readonly string[]): ActionRow[] {
  return rows(
    choices.map((c, i) => {
      const b = APPROVAL_BUTTONS[c as ApprovalChoiceName] ?? { label: c, style: STYLE.secondary };
      return { type: 2, style: b.style, label: b.label, custom_id: `hermes:a:${token}:${i}` };
    }),
  );
}

/** True when a clarify prompt's choices fit into buttons (at most 25). */
export function clarifyFits(choices: readonly string[]): boolean {
  return choices.length > 0 && choices.length <= PER_ROW * MAX_ROWS;
}

/** The action rows of a clarify prompt: one button per choice (labels cut to 80 characters). */
export function clarifyRows(token: string, choices: readonly string[]): ActionRow[] {
  return rows(
    choices.map((c, i) => ({
      type: 2,
      style: STYLE.secondary,
      label: (c.length > MAX_LABEL ? `${c.slice(0, MAX_LABEL - 1)}…` : c) || `${i + 1}`,
      custom_id: `hermes:c:${token}:${i}`,
    })),
  );
}
