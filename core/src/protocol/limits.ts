/**
 * Size limits of the wire protocol that code outside the protocol needs at run time. Kept apart
 * from the zod schemas so that importing one (the agent loop does) does not load zod: `hermes
 * chat` start-up stays free of it (bench `chat.first_request`).
 */

/** Longest `detail` of a `tool.complete`, characters. */
export const TOOL_DETAIL_MAX_CHARS = 8_000;
