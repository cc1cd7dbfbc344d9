/**
 * JSON Schema of the whole wire protocol, generated from the zod schemas (the single source) and
 * committed as `docs/protocol.schema.json`, so drift shows in review. Regenerate with
 * `npm run gen:protocol`; a test fails when the committed file differs.
 */
import { z } from 'zod';
import { EventPayloads, WireEventEnvelope } from './wire-events.js';
import { Methods } from './methods.js';
import { ServerRequests } from './server-requests.js';

/** Protocol version: bump on any incompatible change. */
export const PROTOCOL_VERSION = 1;

const toSchema = (s: z.ZodType): unknown => z.toJSONSchema(s, { unrepresentable: 'any', io: 'input' });

/** The protocol as one JSON Schema document: methods, events, server requests. */
export function buildProtocolJsonSchema(): Record<string, unknown> {
  const methods: Record<string, unknown> = {};
  for (const [name, m] of Object.entries(Methods)) {
    methods[name] = { params: toSchema(m.params), result: toSchema(m.result) };
  }
  const events: Record<string, unknown> = {};
  for (const [name, payload] of Object.entries(EventPayloads)) events[name] = toSchema(payload);
  const serverRequests: Record<string, unknown> = {};
  for (const [name, r] of Object.entries(ServerRequests)) {
    serverRequests[name] = { params: toSchema(r.params), result: toSchema(r.result) };
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Hermes tui-gateway protocol',
    version: PROTOCOL_VERSION,
    transport: 'JSON-RPC 2.0 over WebSocket, one object per text frame',
    eventEnvelope: toSchema(WireEventEnvelope),
    methods,
    events,
    serverRequests,
  };
}

/** The committed file's text for the current schemas (stable key order, trailing newline). */
export function renderProtocolJsonSchema(): string {
  return `${JSON.stringify(buildProtocolJsonSchema(), null, 2)}\n`;
}
