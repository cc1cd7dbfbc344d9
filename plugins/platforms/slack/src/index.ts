/** `@hermes/platform-slack`: Slack adapter (Bolt in Socket Mode, edit-streaming, Block Kit approvals). Not yet enabled: the definition lands with its adapter. */
export {};
