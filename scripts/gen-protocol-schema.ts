/** Writes docs/protocol.schema.json from the zod schemas (`npm run gen:protocol`). */
import { writeFileSync } from 'node:fs';
import { renderProtocolJsonSchema } from '../core/src/protocol/json-schema.js';

const out = new URL('../docs/protocol.schema.json', import.meta.url);
writeFileSync(out, renderProtocolJsonSchema());
process.stdout.write(`wrote ${out.pathname}\n`);
