/** Errors raised while reading or writing configuration files. */

/** A configuration file that cannot be used; names the file and, when known, the key. */
export class ConfigError extends Error {
  /** Absolute path of the file at fault. */
  readonly file: string;
  /** Dotted key at fault (`approvals.mode`), when the problem is a value. */
  readonly key: string | undefined;

  constructor(file: string, message: string, key?: string) {
    super(key ? `${file}: ${key}: ${message}` : `${file}: ${message}`);
    this.name = 'ConfigError';
    this.file = file;
    this.key = key;
  }
}
