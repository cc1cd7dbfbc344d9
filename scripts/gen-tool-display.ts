/**
 * Writes the zod-free tables generated from the tool definitions (`npm run gen:protocol`):
 * core/src/protocol/tool-display.generated.ts (display verbs, for the TUI) and
 * core/src/tools/tool-schemas.generated.ts (the JSON Schemas sent to the model), the latter
 * formatted with the repository's prettier settings.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { builtinTools } from '../core/src/tools/registry.js';
import { renderToolDisplay, TOOL_DISPLAY_FILE } from '../core/src/tools/tool-display.js';
import { renderToolSchemas, TOOL_SCHEMAS_FILE, toolSchemaTable } from '../core/src/tools/tool-schemas.js';

writeFileSync(TOOL_DISPLAY_FILE, renderToolDisplay(builtinTools()));
process.stdout.write(`wrote ${TOOL_DISPLAY_FILE.pathname}\n`);

const schemasPath = fileURLToPath(TOOL_SCHEMAS_FILE);
const schemas = renderToolSchemas(await toolSchemaTable(builtinTools()));
const options = { ...(await resolveConfig(schemasPath)), filepath: schemasPath };
writeFileSync(TOOL_SCHEMAS_FILE, await format(schemas, options));
process.stdout.write(`wrote ${TOOL_SCHEMAS_FILE.pathname}\n`);
