/**
 * Windows command interpreters reached from the line (WSL, Git Bash, MSYS, a `.exe` on PATH):
 * - `cmd-command` — `cmd /c STRING` / `cmd /k STRING` / `cmd /r STRING`: cmd.exe runs the string,
 *   which this shell grammar cannot judge (`del /f /q`, `rmdir /s /q` …);
 * - `powershell-command` — `powershell`/`pwsh` given a command (`-Command`, `-c`, or a positional
 *   command such as `powershell Remove-Item -Recurse …`, `-EncodedCommand`) or a script
 *   (`-File run.ps1`).
 * Their own options (`-NoProfile`, `-ExecutionPolicy Bypass`) are looked through.
 */
import { programName, type SimpleCommand } from '../shell/analyze.js';
import type { CommandRule } from './types.js';

const windowsName = (cmd: SimpleCommand): string => programName(cmd).replace(/\.exe$/, '');

const CMD_COMMAND: CommandRule = {
  key: 'cmd-command',
  description: 'run a Windows cmd.exe command string (cmd /c …), e.g. del or rmdir /s',
  match(cmd) {
    if (windowsName(cmd) !== 'cmd') return null;
    const i = cmd.argv.findIndex((w, k) => k > 0 && /^\/[ckr]$/i.test(w.value));
    if (i < 0) return null;
    return [
      cmd.argv
        .slice(i + 1)
        .map((w) => w.value)
        .join(' '),
    ];
  },
};

/** PowerShell options that take a value (skipped to find the command). */
const PS_VALUED =
  /^-(?:executionpolicy|ep|ex|inputformat|if|outputformat|of|windowstyle|w|workingdirectory|wd|configurationname|settingsfile|version|v|custompipename|psconsolefile)$/i;
/** PowerShell options that give it code to run. */
const PS_CODE = /^-(?:c|command|e|ec|enc|encodedcommand|f|file|commandwithargs|cwa)$/i;

const POWERSHELL_COMMAND: CommandRule = {
  key: 'powershell-command',
  description: 'run a PowerShell command or script (Remove-Item, -EncodedCommand, -File …)',
  match(cmd) {
    if (!/^(?:powershell|pwsh)$/.test(windowsName(cmd))) return null;
    const argv = cmd.argv;
    for (let i = 1; i < argv.length; i++) {
      const v = argv[i]!.value;
      if (PS_CODE.test(v) || !v.startsWith('-'))
        return [
          argv
            .slice(i)
            .map((w) => w.value)
            .join(' '),
        ];
      if (PS_VALUED.test(v)) i++;
    }
    return null;
  },
};

/** The Windows interpreter rules. */
export const WINDOWS_RULES: readonly CommandRule[] = [CMD_COMMAND, POWERSHELL_COMMAND];
