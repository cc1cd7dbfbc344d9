/** The skills tools through `runTool`, as the agent loop calls them. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinTools, runTool } from './registry.js';
import { skillManageTool, skillsListTool, skillViewTool } from './skills.js';
import { makeToolContext } from './testing.js';

const content = (name: string, marker: string) =>
  `---\nname: ${name}\ndescription: How to ${name}\n---\n\nStep one: ${marker}\n`;

describe('skills tools', () => {
  it('are built in', () => {
    const names = builtinTools().map((t) => t.name);
    for (const n of ['skills_list', 'skill_view', 'skill_manage']) expect(names).toContain(n);
  });

  it('create → list → view loads the full body → edit → delete', async () => {
    const ctx = makeToolContext(mkdtempSync(join(tmpdir(), 'skills-tool-')));
    const empty = await runTool(skillsListTool, '{}', ctx);
    expect(empty.content).toMatch(/No skills yet/);

    const created = await runTool(
      skillManageTool,
      JSON.stringify({ action: 'create', name: 'brew-tea', content: content('brew-tea', 'BOIL-WATER-7') }),
      ctx,
    );
    expect(created.ok).toBe(true);
    expect((await runTool(skillsListTool, '{}', ctx)).content).toContain('- brew-tea: How to brew-tea');

    const view = await runTool(skillViewTool, '{"name":"brew-tea"}', ctx);
    expect(view.ok).toBe(true);
    expect(view.content).toContain('Step one: BOIL-WATER-7');

    const edited = await runTool(
      skillManageTool,
      JSON.stringify({ action: 'edit', name: 'brew-tea', content: content('brew-tea', 'STEEP-3-MIN') }),
      ctx,
    );
    expect(edited.ok).toBe(true);
    expect((await runTool(skillViewTool, '{"name":"brew-tea"}', ctx)).content).toContain('STEEP-3-MIN');

    const deleted = await runTool(skillManageTool, '{"action":"delete","name":"brew-tea"}', ctx);
    expect(deleted.ok).toBe(true);
    const gone = await runTool(skillViewTool, '{"name":"brew-tea"}', ctx);
    expect(gone.ok).toBe(false);
    expect(gone.content).toMatch(/no skill "brew-tea"/);
  });

  it('refuses names that would leave the skills folder and content without front matter', async () => {
    const ctx = makeToolContext(mkdtempSync(join(tmpdir(), 'skills-tool-')));
    const escape = await runTool(
      skillManageTool,
      JSON.stringify({ action: 'create', name: '../../etc', content: content('x', 'y') }),
      ctx,
    );
    expect(escape.ok).toBe(false);
    expect(escape.content).toMatch(/invalid skill name/);
    const bad = await runTool(
      skillManageTool,
      JSON.stringify({ action: 'create', name: 'plain', content: 'just text' }),
      ctx,
    );
    expect(bad.ok).toBe(false);
    expect(bad.content).toMatch(/front matter/);
    const noContent = await runTool(skillManageTool, '{"action":"create","name":"plain"}', ctx);
    expect(noContent.content).toMatch(/needs "content"/);
  });
});
