/**
 * The messaging layer, the platform-independent part of chat platforms: session keys,
 * the routing index and reset policies, pairing and authorization, untrusted metadata and PII
 * hashing, the silence filter, the runtime footer, delivery targets, the adapter base, the
 * platform registry and `definePlatform`, hooks, and the seven-step message pipeline. Platform plugins
 * (`plugins/platforms/<name>`) are written against these exports.
 *
 * Named entry point `@hermes/core/messaging`. The heavy part (it loads the agent and tools), the
 * sessions a platform's messages run in, is its own entry: `@hermes/core/platform-sessions`.
 */
export * from './source.js';
export * from './session-key.js';
export * from './untrusted.js';
export * from './silence.js';
export * from './footer.js';
export * from './delivery-target.js';
export * from './delivery.js';
export * from './pairing.js';
export * from './adapter.js';
export * from './registry.js';
export * from './define-platform.js';
export * from './platform-config.js';
export * from './reset-policy.js';
export * from './route-record.js';
export * from './chat-sessions.js';
export * from './context-prompt.js';
export * from './split.js';
export * from './slash.js';
export * from './hooks.js';
export * from './edit-stream.js';
export * from './authz.js';
export * from './backend.js';
export * from './pending-questions.js';
export * from './replay-guard.js';
export * from './delivery-ledger.js';
export * from './pipeline.js';
export * from './pipeline-turn.js';
export * from './pipeline-recovery.js';
export * from './pipeline-commands.js';
export * from './inbound-files.js';
export * from './inbound-attachments.js';
export * from './long-reply.js';
