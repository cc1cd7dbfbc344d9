/** Starting a server and waiting until it listens, with the bind error (EADDRINUSE …) rejected. */
import type { Server } from 'node:net';

/**
 * Calls `server.listen(...args)` and resolves once it listens; rejects with the error of a failed
 * bind. The one-time error listener is removed either way, so later errors go to the caller's own.
 * @param args as for `net.Server.listen`: `(port, host)` or `(socketPath)`.
 */
export function listenOn(
  server: Server,
  ...args: [port: number, host: string] | [path: string]
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(...(args as [number, string]), () => {
      server.off('error', reject);
      resolve();
    });
  });
}
