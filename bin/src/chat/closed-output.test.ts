import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { EXIT_CLOSED_OUTPUT, watchClosedOutput } from './closed-output.js';

const epipe = (): Error => Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });

describe('watchClosedOutput', () => {
  it('turns EPIPE into one quiet close with exit code 141, swallowing later errors', () => {
    const out = new EventEmitter();
    const err = new EventEmitter();
    const output = watchClosedOutput([out, err]);
    let stops = 0;
    output.onClose(() => stops++);
    expect(output.closed).toBe(false);
    out.emit('error', epipe()); // without a listener this would throw
    out.emit('error', epipe());
    err.emit('error', epipe());
    expect(output.closed).toBe(true);
    expect(output.exitCode).toBe(EXIT_CLOSED_OUTPUT);
    expect(stops).toBe(1);
    output.onClose(() => stops++); // registered after the close: runs at once
    expect(stops).toBe(2);
  });

  it('exits 1 for a write error other than EPIPE, naming it on stderr', () => {
    let err = '';
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      err += String(chunk);
      return true;
    });
    try {
      const out = new EventEmitter();
      const output = watchClosedOutput([out]);
      out.emit('error', Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
      expect(output.exitCode).toBe(1);
      expect(err).toBe('hermes: cannot write the output (no space left on device); stopping the turn\n');
    } finally {
      spy.mockRestore();
    }
  });
});
