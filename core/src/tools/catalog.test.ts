/** The tables other modules read off the tool definitions (catalog.ts), for the built-in tools. */
import { describe, expect, it } from 'vitest';
import { allowedForSubagents, allowedInCron, scriptTools, toolsetTable, toolVerbTable } from './catalog.js';
import { TOOLSET_NAMES } from './define.js';
import { subagentBlockedNames } from './delegate.js';
import { builtinTools } from './registry.js';

const tools = builtinTools();
const names = (list: { name: string }[]): string[] => list.map((t) => t.name);

describe('tables derived from the definitions', () => {
  it('script tools: the original execute_code list', () => {
    expect(names(scriptTools(tools)).sort()).toEqual(
      ['web_search', 'web_extract', 'read_file', 'write_file', 'search_files', 'patch', 'terminal'].sort(),
    );
  });

  it('delegate toolsets: every toolset name, with its members in tool order', () => {
    expect(toolsetTable(tools)).toEqual({
      terminal: ['terminal'],
      file: ['read_file', 'write_file', 'patch', 'search_files'],
      web: ['web_search', 'web_extract'],
      todo: ['todo'],
      skills: ['skills_list', 'skill_view', 'skill_manage'],
      cronjob: ['cronjob'],
    });
    expect(Object.keys(toolsetTable(tools))).toEqual([...TOOLSET_NAMES]);
  });

  it('sub-agents never get delegate_task, clarify, memory, execute_code or process', () => {
    expect([...subagentBlockedNames(tools)].sort()).toEqual(
      ['clarify', 'delegate_task', 'execute_code', 'memory', 'process'].sort(),
    );
    expect(allowedForSubagents({})).toBe(true); // MCP tools and other plain definitions
  });

  it('cron runs never get cronjob, clarify or process', () => {
    expect(names(tools.filter((t) => !allowedInCron(t))).sort()).toEqual(['clarify', 'cronjob', 'process']);
    expect(allowedInCron({})).toBe(true);
  });

  it('display verbs: every built-in tool but skill_manage has one', () => {
    const verbs = toolVerbTable(tools);
    expect(Object.keys(verbs).sort()).toEqual(
      names(tools)
        .filter((n) => n !== 'skill_manage')
        .sort(),
    );
    expect(verbs.terminal).toEqual(['Ran', 'Running']);
  });
});
