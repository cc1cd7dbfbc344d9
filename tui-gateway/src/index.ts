/** Placeholder entry until the tui-gateway issue lands. */
export {};
