/** `@hermes/platform-discord`: Discord adapter (discord.js gateway + REST, edit-streaming, button approvals). Not yet enabled: the definition lands with its adapter. */
export {};
