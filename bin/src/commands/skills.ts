/**
 * `hermes skills list | show NAME | remove NAME` (issue 8 "Skills"): the selected profile's
 * `skills/<name>/SKILL.md`. Loads `@hermes/core/skills/*` only when the command runs.
 */
import type { CommandModule } from 'yargs';
import type { CliContext } from '../context.js';

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
          (c) =>
            c.option('json', { type: 'boolean', default: false, describe: 'Print JSON instead of text' }),
          async (a) => {
            const { listSkills } = await import('@hermes/core/skills/skills-index');
            const skills = listSkills(ctx.home.skillsDir);
            if (a.json) {
              process.stdout.write(`${JSON.stringify(skills, null, 2)}\n`);
              return;
            }
            if (skills.length === 0) {
              process.stdout.write(`No skills in ${ctx.home.skillsDir}\n`);
              return;
            }
            const width = Math.max(...skills.map((s) => s.name.length));
            for (const s of skills) process.stdout.write(`${s.name.padEnd(width)}  ${s.description}\n`);
          },
        )
        .command(
          'show <name>',
          'Print a skill (its SKILL.md)',
          (c) => c.positional('name', { type: 'string', demandOption: true }),
          async (a) => {
            const { findSkill } = await import('@hermes/core/skills/skill-store');
            const { CliExit } = await import('../context.js');
            const skill = findSkill(ctx.home, String(a.name));
            if (!skill) throw new CliExit(1, `no skill "${String(a.name)}" in ${ctx.home.skillsDir}`);
            process.stdout.write(skill.text.endsWith('\n') ? skill.text : `${skill.text}\n`);
          },
        )
        .command(
          'remove <name>',
          'Delete a skill (its whole folder)',
          (c) => c.positional('name', { type: 'string', demandOption: true }),
          async (a) => {
            const { deleteSkill } = await import('@hermes/core/skills/skill-store');
            const { CliExit } = await import('../context.js');
            try {
              const dir = deleteSkill(ctx.home, String(a.name));
              process.stdout.write(`Removed ${dir}\n`);
            } catch (err) {
              throw new CliExit(1, (err as Error).message);
            }
          },
        )
        .demandCommand(1, 'Give a sub-command: list, show or remove'),
    handler: () => undefined,
  };
}
