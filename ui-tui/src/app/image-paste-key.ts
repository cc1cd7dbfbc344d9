/**
 * Ctrl+V while the composer has the keyboard attaches the clipboard's image (`/paste`). Text is
 * pasted by the terminal itself (Ctrl+Shift+V, Cmd+V), which never sends Ctrl+V to the program.
 */
import { useInput } from 'ink';
import type { SessionController } from './controller.js';
import { errorText } from './controller.js';
import { pasteCommand } from './image-commands.js';

/** Registers the Ctrl+V key of the App (active while the composer is). */
export function useImagePasteKey(controller: SessionController, active: boolean): void {
  useInput(
    (input, key) => {
      if (key.ctrl && input === 'v')
        void pasteCommand(controller).catch((e: unknown) => controller.notice(errorText(e), 'error'));
    },
    { isActive: active },
  );
}
