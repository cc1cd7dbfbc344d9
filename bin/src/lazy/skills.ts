/** Loaded by `hermes skills` when it runs. */
export { deleteSkill, findSkill, listSkills, skillDir } from '@hermes/core/skills';
