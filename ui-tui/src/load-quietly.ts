/**
 * Loading the app without loading Node's HTTP client. Yoga, Ink's layout engine, is WebAssembly
 * embedded in its module as a base64 `data:` URL; its Emscripten loader fetches that URL with the
 * global `fetch` when there is one, which brings Node's whole HTTP client (undici, with its own
 * WebAssembly HTTP parser) into the TUI for nothing: about 7 MB resident and 4 MB of heap.
 * With `fetch` hidden while the app loads, the loader decodes the URL itself.
 */

/**
 * Runs `load` with `globalThis.fetch` undefined, and puts it back (as it was: a value or Node's
 * lazy getter) when `load` settles, also when it throws. Nothing else may need `fetch` meanwhile.
 * @returns what `load` resolves to.
 */
export async function withoutGlobalFetch<T>(load: () => Promise<T>): Promise<T> {
  const original = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
  if (!original?.configurable) return load();
  Object.defineProperty(globalThis, 'fetch', { value: undefined, configurable: true, writable: true });
  try {
    return await load();
  } finally {
    Object.defineProperty(globalThis, 'fetch', original);
  }
}
