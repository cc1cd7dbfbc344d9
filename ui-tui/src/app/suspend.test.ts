import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { canSuspend, suspendTui } from './suspend.js';

function fakeIo() {
  const log: string[] = [];
  const proc = new EventEmitter();
  return {
    log,
    proc,
    terminal: { release: () => log.push('release'), reclaim: () => log.push('reclaim') },
  };
}

describe('suspendTui', () => {
  it('hands the terminal back before stopping, and takes it back on SIGCONT', async () => {
    const io = fakeIo();
    const done = suspendTui({
      terminal: io.terminal,
      proc: io.proc as unknown as NodeJS.Process,
      stop: () => io.log.push('stop'),
      redraw: () => io.log.push('redraw'),
    });
    expect(io.log).toEqual(['release', 'stop']);
    io.proc.emit('SIGCONT');
    await done;
    expect(io.log).toEqual(['release', 'stop', 'reclaim', 'redraw']);
    expect(io.proc.listenerCount('SIGCONT')).toBe(0);
  });

  it('takes the terminal back and rejects when the stop signal cannot be sent', async () => {
    const io = fakeIo();
    const done = suspendTui({
      terminal: io.terminal,
      proc: io.proc as unknown as NodeJS.Process,
      stop: () => {
        throw new Error('EPERM');
      },
    });
    await expect(done).rejects.toThrow('EPERM');
    expect(io.log).toEqual(['release', 'reclaim']);
    expect(io.proc.listenerCount('SIGCONT')).toBe(0);
  });

  it('is offered where job control exists', () => {
    expect(canSuspend('linux')).toBe(true);
    expect(canSuspend('win32')).toBe(false);
  });
});
