/** Drift check: the zod schemas, the committed JSON Schema and docs/protocol.md must agree. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderProtocolJsonSchema } from './json-schema.js';
import { Methods } from './methods.js';
import { ServerRequests } from './server-requests.js';
import { EventPayloads } from './wire-events.js';

const docsDir = new URL('../../../docs/', import.meta.url);

describe('protocol documentation', () => {
  it('docs/protocol.schema.json matches the schemas (run `npm run gen:protocol`)', () => {
    expect(readFileSync(new URL('protocol.schema.json', docsDir), 'utf8')).toBe(renderProtocolJsonSchema());
  });

  it('docs/protocol.md documents every method, event and server request, and nothing else', () => {
    const md = readFileSync(new URL('protocol.md', docsDir), 'utf8');
    const documented = new Set([...md.matchAll(/^### `([^`]+)`$/gm)].map((m) => m[1]!));
    const names = [...Object.keys(Methods), ...Object.keys(EventPayloads), ...Object.keys(ServerRequests)];
    for (const name of names) expect(documented, `docs/protocol.md lacks "### \`${name}\`"`).toContain(name);
    for (const name of documented)
      expect(names, `docs/protocol.md documents unknown "${name}"`).toContain(name);
  });
});
