/**
 * One tmux control-mode client (`tmux -C`) kept open for a benchmark's life: pane captures are
 * commands written to its stdin and answered in `%begin … %end` blocks, so polling a pane every
 * few ms costs no process spawn. (A `tmux capture-pane` process per poll cost the machine about a
 * core while four panes were polled every 2 ms, and the TUIs being measured paid for it.)
 *
 * The client asks for no pane output (`refresh-client -f no-output`) unless made with `output`:
 * then it counts the `%output` notifications of each pane, so a wait can capture a pane when it
 * has printed something rather than every few ms. It does not size windows (a control client
 * without `refresh-client -C` is left out of window sizing).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

interface Pending {
  resolve(lines: string[]): void;
  reject(err: Error): void;
}

/** A control-mode client of a tmux server, attached to one of its sessions. */
export class TmuxControl {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly queue: Pending[] = [];
  /** Lines of the block being read; null outside a block. */
  private block: string[] | null = null;
  /** The command number of the block being read (`%begin TIME NUMBER FLAGS`). */
  private blockId = '';
  /** Whether the block answers a command of this client (flags 1). */
  private blockOurs = false;
  private closed: Error | null = null;
  /** Whether tmux has attached the client (its own block, flags 0, has ended). */
  private attached = false;
  /** Commands written once attached. */
  private readonly unsent: string[] = [];
  /** `%output` notifications seen per pane id (`%3`), with `output`. */
  private readonly outputs = new Map<string, number>();
  /** Waits for a pane's next output. */
  private readonly outputWaiters = new Set<{ pane: string; after: number; done: () => void }>();

  /**
   * @param socket the server's socket name (`tmux -L`).
   * @param session the session to attach to (it must exist).
   * @param opts `output`: receive the panes' output notifications (`outputCount`, `nextOutput`).
   */
  constructor(socket: string, session: string, opts: { output?: boolean } = {}) {
    this.child = spawn('tmux', ['-L', socket, '-f', '/dev/null', '-C', 'attach-session', '-t', session], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const lines = createInterface({ input: this.child.stdout });
    lines.on('line', (line) => this.onLine(line));
    this.child.on('exit', (code) => this.fail(new Error(`tmux control client exited (${code})`)));
    this.child.on('error', (err) => this.fail(err));
    // pane output is not wanted: without this tmux sends every byte the panes print
    if (!opts.output) this.command('refresh-client -f no-output').catch(() => {});
  }

  /** How many `%output` notifications a pane (`%3`) has sent so far (a client made with `output`). */
  outputCount(pane: string): number {
    return this.outputs.get(pane) ?? 0;
  }

  /**
   * Resolves once a pane (`%3`) has sent more than `after` output notifications, or after
   * `timeoutMs`, whichever comes first (a client made with `output`).
   */
  nextOutput(pane: string, after: number, timeoutMs: number): Promise<void> {
    if (this.outputCount(pane) > after || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = {
        pane,
        after,
        done: () => {
          clearTimeout(timer);
          this.outputWaiters.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(waiter.done, timeoutMs);
      this.outputWaiters.add(waiter);
    });
  }

  /**
   * Runs one tmux command (a command line as tmux parses it); resolves with its output lines.
   * Commands wait until the client is attached (before that, tmux runs them without a client).
   */
  command(line: string): Promise<string[]> {
    if (this.closed) return Promise.reject(this.closed);
    return new Promise((resolve, reject) => {
      this.queue.push({ resolve, reject });
      if (this.attached) this.child.stdin.write(`${line}\n`);
      else this.unsent.push(line);
    });
  }

  /** The visible screen of a pane, as `tmux capture-pane -p` prints it. */
  async capture(target: string): Promise<string> {
    const lines = await this.command(`capture-pane -p -t ${quote(target)}`);
    return `${lines.join('\n')}\n`;
  }

  /** Detaches the client (the server and its panes keep running). */
  close(): void {
    if (this.closed) return;
    this.fail(new Error('tmux control client closed'));
    this.child.stdin.end();
    this.child.kill();
  }

  private onLine(line: string): void {
    // a notification only outside a command's block (a captured line may read "%output …" too)
    if (this.block === null && line.startsWith('%output ')) {
      const pane = line.slice(8, line.indexOf(' ', 8));
      const count = this.outputCount(pane) + 1;
      this.outputs.set(pane, count);
      for (const w of this.outputWaiters) if (w.pane === pane && count > w.after) w.done();
      return;
    }
    if (this.block === null) {
      const begin = /^%begin \d+ (\d+) (\d+)$/.exec(line);
      if (begin) {
        this.block = [];
        this.blockId = begin[1]!;
        this.blockOurs = begin[2] === '1';
      }
      return; // a notification (%window-add, %session-changed …): not ours
    }
    const end = /^%(end|error) \d+ (\d+) \d+$/.exec(line);
    if (end && end[2] === this.blockId) {
      const lines = this.block;
      this.block = null;
      if (!this.blockOurs) {
        // the attach's own block (flags 0): from now on commands run with this client
        if (!this.attached) {
          this.attached = true;
          for (const unsent of this.unsent.splice(0)) this.child.stdin.write(`${unsent}\n`);
        }
        return;
      }
      const waiting = this.queue.shift();
      if (end[1] === 'end') waiting?.resolve(lines);
      else waiting?.reject(new Error(`tmux: ${lines.join('\n')}`));
      return;
    }
    this.block.push(line);
  }

  private fail(err: Error): void {
    if (this.closed) return;
    this.closed = err;
    for (const w of this.outputWaiters) w.done();
    for (const waiting of this.queue.splice(0)) waiting.reject(err);
  }
}

/** Quotes a word for tmux's command parser. */
function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
