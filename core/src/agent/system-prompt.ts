/**
 * System prompt assembly: identity, environment, memory, skills index, project
 * context file (context-files.ts: a file the content scanner flags is replaced by a
 * `[BLOCKED: <file>: <classes>]` line), tool guidance. The result must stay byte-stable within a session (no clock beyond
 * the date) so providers can cache it; callers build it once per session and store it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { platform, release } from 'node:os';
import type { HermesConfig } from '../config/schema.js';
import type { HermesHome } from '../home/home.js';
import { listSkills } from '../skills/skills-index.js';
import { scanContent, threatClasses } from '../security/content-scan.js';
import { findContextFile } from './context-files.js';

/** The identity used when the home has no SOUL.md. */
export const DEFAULT_IDENTITY = `You are Hermes, a capable personal AI agent running on the user's own machine. You help with software, research, writing and everyday tasks by thinking carefully and using your tools. Be direct and accurate; say plainly when you are unsure or when something failed.`;

/** Separator between memory entries in MEMORY.md / USER.md. */
export const MEMORY_ENTRY_SEPARATOR = '§';

const TOOL_GUIDANCE = `# How to work
- Use tools to inspect before you change: read files, search, run commands. Do not guess file contents.
- When you need several independent pieces of information, request those tool calls together in one response; read-only ones run in parallel.
- Prefer \`patch\` for small edits and \`write_file\` for new files. Paths are relative to the working directory unless absolute.
- Some shell commands need the user's approval. If one is denied, do not retry it or work around it; explain what you wanted to do and continue or stop.
- Keep a task list with \`todo\` for multi-step work. Save durable facts about the user or the environment with \`memory\`.
- When the task is to build or fix something, the deliverable is a working result: run it or test it before you say it is done.
- Finish with a short answer that says what you did and what is left.`;

/** Inputs of the builder; everything comes from the session's own home (never another profile's). */
export interface SystemPromptInput {
  home: HermesHome;
  config: HermesConfig;
  cwd: string;
  /** Date used for the environment block; defaults to today (only the date, never the time). */
  now?: Date;
  /** Names of the tools offered in this session. */
  toolNames: string[];
  /** Extra platform/context block (e.g. a chat platform's untrusted metadata), appended last. */
  extra?: string;
}

function readText(path: string): string {
  try {
    return existsSync(path) ? readFileSync(path, 'utf8').trim() : '';
  } catch {
    return '';
  }
}

/**
 * Renders one memory file as a prompt block, showing how much of its char budget is used.
 * Content past the budget (hand-edited files) is cut with a marker.
 */
export function memoryBlock(title: string, text: string, limit: number): string {
  if (!text) return '';
  const shown =
    text.length > limit ? `${text.slice(0, limit)}\n[... truncated: over the ${limit}-char limit]` : text;
  const pct = Math.min(100, Math.round((text.length / limit) * 100));
  return `## ${title} [${pct}% — ${text.length}/${limit} chars]\n${shown}`;
}

/**
 * Memory as it enters the prompt: an entry the content scanner (`strict` scope) flags — written
 * by hand, by another program or before the scan existed — is replaced by
 * `[BLOCKED: <file> entry: <classes>]`; the file keeps it, so the user can see and remove it.
 * Text without findings is returned unchanged.
 */
export function sanitizeMemory(text: string, fileName: string): string {
  if (!text) return text;
  const entries = text.split(/\r?\n§\r?\n/);
  let changed = false;
  const out = entries.map((e) => {
    const classes = threatClasses(scanContent(e, 'strict'));
    if (classes.length === 0) return e;
    changed = true;
    return `[BLOCKED: ${fileName} entry: ${classes.join(', ')}]`;
  });
  return changed ? out.join('\n§\n') : text;
}

/** Builds the system prompt text. Deterministic for the same files, config, cwd and date. */
export function buildSystemPrompt(input: SystemPromptInput): string {
  const { home, config, cwd } = input;
  const parts: string[] = [];

  parts.push(readText(home.soulFile) || DEFAULT_IDENTITY);

  const date = (input.now ?? new Date()).toISOString().slice(0, 10);
  const shell = process.env.SHELL ?? (platform() === 'win32' ? 'cmd.exe' : '/bin/sh');
  parts.push(
    `# Environment\n- OS: ${platform()} ${release()}\n- Shell: ${shell}\n- Working directory: ${cwd}\n- Date: ${date}\n- Profile: ${home.profile}`,
  );

  const memory = [
    memoryBlock(
      'Memory (your notes)',
      sanitizeMemory(readText(home.memoryFile), 'MEMORY.md'),
      config.memory.memory_char_limit,
    ),
    memoryBlock(
      'User profile',
      sanitizeMemory(readText(home.userFile), 'USER.md'),
      config.memory.user_char_limit,
    ),
  ].filter(Boolean);
  if (memory.length > 0) {
    parts.push(
      `# Persistent memory\nEntries are separated by "${MEMORY_ENTRY_SEPARATOR}".\n\n${memory.join('\n\n')}`,
    );
  }

  const skills = listSkills(home.skillsDir);
  if (skills.length > 0) {
    const lines = skills.map((s) => `- ${s.name}: ${s.description}`);
    parts.push(
      `# Skills\nSaved procedures. Load one with \`skill_view\` (or the user types /<name>) before following it.\n${lines.join('\n')}`,
    );
  }

  const ctx = findContextFile(cwd);
  if (ctx) parts.push(`# Project context (${ctx.path})\n${ctx.content}`);

  if (input.toolNames.length > 0)
    parts.push(`${TOOL_GUIDANCE}\n- Tools available: ${input.toolNames.join(', ')}.`);
  if (input.extra) parts.push(input.extra);
  return parts.join('\n\n');
}
