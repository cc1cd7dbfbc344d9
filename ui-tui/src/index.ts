/** Placeholder entry until the ui-tui issue lands. */
export {};
