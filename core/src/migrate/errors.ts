/** Errors of `hermes migrate`. */

/** A source file that cannot be read or used; the message names the file and the reason. */
export class MigrateError extends Error {
  /**
   * @param file absolute path of the file concerned.
   * @param reason why it cannot be used.
   */
  constructor(
    readonly file: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${reason}`, options);
    this.name = 'MigrateError';
  }
}
