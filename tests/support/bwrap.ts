/**
 * `describeBwrap` for cross-process tests: runs the suite only where bubblewrap can start a
 * sandbox (installed by `.ci/run`), and otherwise skips it with the reason in its title.
 */
export { bwrapSkipReason, describeBwrap } from '@hermes/core/testing';
