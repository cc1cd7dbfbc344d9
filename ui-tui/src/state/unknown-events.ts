/**
 * Events of a type this TUI does not know: a daemon newer than the TUI may send them. The
 * reducer ignores them and tells a sink; the sink here logs each type once, so a stream of them
 * does not flood the log.
 */

/** Told the type of an event the reducer does not know (once per such event). */
export type UnknownEventSink = (type: string) => void;

/**
 * A sink that writes one line to `warn` the first time each unknown type arrives, and nothing
 * for later events of that type.
 */
export function unknownEventLog(warn: (line: string) => void): UnknownEventSink {
  const seen = new Set<string>();
  return (type) => {
    if (seen.has(type)) return;
    seen.add(type);
    warn(`ignoring events of type "${type}": this TUI does not know them (the daemon is newer)`);
  };
}
