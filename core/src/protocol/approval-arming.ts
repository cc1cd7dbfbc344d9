/**
 * When a key or a line typed at a terminal may answer an approval request (the TUI's card and
 * `hermes chat`'s prompt share the rule). A request that appears while the user is typing must
 * never be answered by keys meant for their message: the frontend takes an answer only after the
 * request has been on screen for `APPROVAL_ARM_MS` and the user has paused typing for
 * `APPROVAL_BURST_MS`; everything before that is the user's text. No imports: `hermes chat`
 * loads this at start-up.
 */

/** How long an approval request is on screen before a key or line can answer it, ms. */
export const APPROVAL_ARM_MS = 600;

/**
 * Keys closer together than this are one typing burst, ms: a key this soon after the previous
 * one keeps the card unarmed (it goes to the composer), and a choice key followed this soon by
 * another key was typing, not an answer.
 */
export const APPROVAL_BURST_MS = 350;
