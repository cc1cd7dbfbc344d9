/** Writes core/src/protocol/tool-display.generated.ts from the tool definitions (`npm run gen:protocol`). */
import { writeFileSync } from 'node:fs';
import { builtinTools } from '../core/src/tools/registry.js';
import { renderToolDisplay, TOOL_DISPLAY_FILE } from '../core/src/tools/tool-display.js';

writeFileSync(TOOL_DISPLAY_FILE, renderToolDisplay(builtinTools()));
process.stdout.write(`wrote ${TOOL_DISPLAY_FILE.pathname}\n`);
