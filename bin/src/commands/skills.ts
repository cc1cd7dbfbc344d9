/**
 * `hermes skills [list] | show NAME | remove NAME [--yes]`: the selected
 * profile's `skills/<name>/SKILL.md`. Bare `hermes skills` lists; `remove` asks on a terminal
 * unless `--yes`. Loads `@hermes/core/skills` only when the command runs.
 */
import { join } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import type { CliContext } from '../context.js';
import { hermesCommand } from '../command-form.js';

const withJson = <T>(y: Argv<T>) =>
  y.option('json', { type: 'boolean', default: false, describe: 'Print JSON instead of text' });

/** `hermes skills list`: name and description of each skill, or JSON. */
async function listSkillsCommand(ctx: CliContext, json: boolean): Promise<void> {
  const { listSkills } = await import('../lazy/skills.js');
  const skills = listSkills(ctx.home.skillsDir);
  if (json) {
    process.stdout.write(`${JSON.stringify(skills, null, 2)}\n`);
    return;
  }
  if (skills.length === 0) {
    process.stdout.write(`No skills in ${ctx.home.skillsDir}\n`);
    return;
  }
  const width = Math.max(...skills.map((s) => s.name.length));
  for (const s of skills) process.stdout.write(`${s.name.padEnd(width)}  ${s.description}\n`);
}

/** Builds the `skills` command and its sub-commands for the selected profile. */
export function skillsCommand(ctx: CliContext): CommandModule {
  return {
    command: 'skills',
    describe: "List, show or remove the profile's skills",
    builder: (y) =>
      y
        .command(
          'list',
          'List skills (name and description)',
          (c) => withJson(c),
          (a) => listSkillsCommand(ctx, a.json),
        )
        .command(
          'show <name>',
          'Print a skill (its SKILL.md)',
          (c) => c.positional('name', { type: 'string', demandOption: true }),
          async (a) => {
            const { findSkill } = await import('../lazy/skills.js');
            const { CliExit } = await import('../context.js');
            const skill = findSkill(ctx.home, String(a.name));
            if (!skill) throw new CliExit(1, `no skill "${String(a.name)}" in ${ctx.home.skillsDir}`);
            process.stdout.write(skill.text.endsWith('\n') ? skill.text : `${skill.text}\n`);
          },
        )
        .command(
          'remove <name>',
          'Delete a skill (its whole folder); asks first on a terminal',
          (c) =>
            c.positional('name', { type: 'string', demandOption: true }).option('yes', {
              alias: 'y',
              type: 'boolean',
              default: false,
              describe: 'Do not ask on a terminal',
            }),
          async (a) => {
            const { deleteSkill, skillDir } = await import('../lazy/skills.js');
            const { CliExit } = await import('../context.js');
            const name = String(a.name);
            if (!a.yes && process.stdin.isTTY) {
              const { existsSync } = await import('node:fs');
              let dir: string;
              try {
                dir = skillDir(ctx.home, name);
              } catch (err) {
                throw new CliExit(1, (err as Error).message);
              }
              if (!existsSync(join(dir, 'SKILL.md')))
                throw new CliExit(
                  1,
                  `no skill "${name}" in ${ctx.home.skillsDir} (${hermesCommand()} skills lists them)`,
                );
              const { confirm } = await import('../confirm.js');
              if (!(await confirm(`Remove skill "${name}" and everything in ${dir}? [y/N] `)))
                throw new CliExit(1, 'not removed');
            }
            try {
              const dir = deleteSkill(ctx.home, name);
              process.stdout.write(`Removed ${dir}\n`);
            } catch (err) {
              throw new CliExit(1, (err as Error).message);
            }
          },
        )
        .option('json', { type: 'boolean', default: false, describe: 'Print JSON (bare skills: the list)' }),
    handler: (a) => listSkillsCommand(ctx, Boolean(a.json)),
  };
}
