/**
 * The skills tools (the original's tools/skills_tool.py and
 * tools/skill_manager_tool.py): `skills_list`, `skill_view`, `skill_manage`.
 *
 * - `skills_list` returns the index (name + description), the same lines the system prompt
 *   carries; `skill_view` returns a skill's full instructions as the tool result, so the body
 *   enters the conversation and never the system prompt.
 * - `skill_manage` creates, replaces (`edit`) or deletes a skill of this profile. It writes only
 *   `<home>/skills/<name>/SKILL.md`: a name is a plain folder name, so no write can land outside
 *   the skills folder (a write outside it is impossible by construction, so no approval is
 *   needed). Content rules are in `../skills/skill-store.ts`.
 */
import { deleteSkill, findSkill, writeSkill } from '../skills/skill-store.js';
import { listSkills } from '../skills/skills-index.js';
import { toolError } from './args.js';
import { defineTool } from './define.js';
import type { ToolDefinition, ToolResult } from './types.js';

/** The `skills_list` tool: every skill of this profile with its description. */
export const skillsListTool: ToolDefinition = defineTool({
  name: 'skills_list',
  description:
    "List this profile's skills (saved procedures): name and when to use each. Load one with skill_view " +
    'before following it.',
  parameters: (z) => z.object({}),
  readOnly: true,
  toolsets: ['skills'],
  verb: ['Listed skills', 'Listing skills'],
  async run(_args, ctx): Promise<ToolResult> {
    const skills = listSkills(ctx.home.skillsDir);
    if (skills.length === 0)
      return {
        ok: true,
        content:
          'No skills yet. Create one with skill_manage (action "create") after solving a task worth repeating.',
        summary: '0 skills',
      };
    const lines = skills.map((s) => `- ${s.name}: ${s.description || '(no description)'}`);
    return {
      ok: true,
      content: `${skills.length} skill${skills.length === 1 ? '' : 's'}:\n${lines.join('\n')}`,
      summary: `${skills.length} skills`,
    };
  },
});

/** The `skill_view` tool: the full SKILL.md of one skill. */
export const skillViewTool: ToolDefinition = defineTool({
  name: 'skill_view',
  description:
    'Load the full instructions of a skill (from skills_list or the Skills section of the system prompt). ' +
    'Read it before doing the task it describes, then follow it.',
  parameters: (z) => z.object({ name: z.string().describe('The skill name, e.g. "deploy-site".') }),
  readOnly: true,
  toolsets: ['skills'],
  verb: ['Read skill', 'Reading skill'],
  summarize: (args) => String(args.name ?? ''),
  async run({ name }, ctx): Promise<ToolResult> {
    const skill = findSkill(ctx.home, name);
    if (!skill) {
      const known = listSkills(ctx.home.skillsDir).map((s) => s.name);
      return toolError(
        'skill_view',
        `no skill "${name}". ${known.length ? `Known skills: ${known.join(', ')}.` : 'There are no skills yet.'}`,
      );
    }
    return {
      ok: true,
      content: `# Skill: ${skill.name}\n(${skill.path})\n\n${skill.text.trim()}`,
      summary: skill.name,
    };
  },
});

/** The `skill_manage` tool: create, edit (full rewrite) or delete a skill. */
export const skillManageTool: ToolDefinition = defineTool({
  name: 'skill_manage',
  description:
    'Save what worked as a reusable skill, or update/delete one. A skill is <skills>/<name>/SKILL.md: YAML ' +
    'front matter with "name" (equal to the skill name) and "description" (one line: when to use it), then ' +
    'step-by-step instructions in Markdown. Actions: "create" (new skill), "edit" (replace the whole ' +
    'SKILL.md; read it first with skill_view), "delete". Names: lower-case letters, digits, ".", "_", "-".',
  parameters: (z) =>
    z.object({
      action: z.enum(['create', 'edit', 'delete']),
      name: z.string().describe('Skill name (folder name), e.g. "release-checklist".'),
      content: z
        .string()
        .describe(
          'The complete SKILL.md for create/edit, e.g. "---\\nname: release-checklist\\ndescription: Steps to cut ' +
            'a release\\n---\\n\\n1. …". Not used by delete.',
        )
        .optional(),
    }),
  readOnly: false,
  toolsets: ['skills'],
  summarize: (args) => `${String(args.action ?? '')} ${String(args.name ?? '')}`,
  async run(args, ctx): Promise<ToolResult> {
    const { action, content } = args;
    const name = args.name.trim();
    try {
      if (action === 'delete') {
        deleteSkill(ctx.home, name);
        return { ok: true, content: `Deleted skill "${name}".`, summary: `deleted ${name}` };
      }
      if (content === undefined || content.trim() === '')
        return toolError('skill_manage', `action "${action}" needs "content" (the complete SKILL.md)`);
      const path = writeSkill(ctx.home, name, content, action === 'edit' ? 'edit' : 'create');
      const verb = action === 'edit' ? 'Updated' : 'Created';
      return {
        ok: true,
        content: `${verb} skill "${name}" at ${path}. It is listed in the skills index of new sessions.`,
        summary: `${action} ${name}`,
      };
    } catch (err) {
      return toolError('skill_manage', (err as Error).message);
    }
  },
});
