/**
 * Pre-parse of `-p/--profile` before anything else runs.
 *
 * Scans argv up to `--`, skipping the values of options that take one, so `-m p` never selects
 * profile `p`. A value that is not a valid profile id is left alone (it is not a profile flag).
 */
import { CLI_VALUE_FLAGS, isValidProfileId, normalizeProfileName } from '@hermes/core/home';

/** Options whose next argument is a value, never a profile flag. */
export const VALUE_FLAGS: ReadonlySet<string> = CLI_VALUE_FLAGS;

/** The result of the pre-parse. */
export interface ProfileFlagResult {
  /** Canonical profile name from the flag, or undefined when none was given. */
  profile: string | undefined;
  /** argv with the consumed flag (and its value) removed. */
  argv: string[];
}

/** Extracts the profile flag from argv (without `node` and the script). */
export function extractProfileFlag(args: readonly string[]): ProfileFlagResult {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (VALUE_FLAGS.has(a)) {
      i++;
      continue;
    }
    if (a === '-p' || a === '--profile') {
      const value = args[i + 1];
      if (value === undefined) continue;
      const canon = normalizeProfileName(value);
      if (!isValidProfileId(canon)) continue;
      return { profile: canon, argv: [...args.slice(0, i), ...args.slice(i + 2)] };
    }
    if (a.startsWith('--profile=')) {
      const canon = normalizeProfileName(a.slice('--profile='.length));
      if (!isValidProfileId(canon)) continue;
      return { profile: canon, argv: [...args.slice(0, i), ...args.slice(i + 1)] };
    }
  }
  return { profile: undefined, argv: [...args] };
}
