/**
 * A shell command line as the list of simple commands it would run, for the approval rules.
 *
 * The line is parsed with the bash grammar (grammar.ts). Every simple command is listed, wherever
 * it sits: in a sequence or pipeline, a `( … )` subshell or `{ …; }` group, a function body, a
 * condition or loop, inside `$( … )`, backticks or `<( … )`, and — parsed again from their text —
 * the script of `bash -c`/`sh -c`/`su -c`/`eval`, a here-document or here-string fed to a shell,
 * or literal text piped into a shell by `echo`/`printf`/`cat`. Wrappers that run another command
 * (`sudo`, `env`, `nohup`, `timeout`, `nice`, `xargs`, `find -exec` …) are looked through
 * (wrappers.ts): the listed command is the one that runs, and the wrapper is recorded.
 *
 * A line the grammar cannot fully parse is marked `errors`; what it could recover is still listed,
 * and callers also apply their text patterns to the raw line (fail towards asking).
 */
import { literalOutput, SCRIPT_FILE, WRITE_OPS } from './fixed-text.js';
import { bashParser, type Node } from './grammar.js';
import { splitIfs, SUBSTITUTIONS, wordOf, type ShellWord } from './words.js';
import { COMMAND_VARIABLES } from './option-scripts.js';
import { unwrap, type Wrapper } from './wrappers.js';

export type { ShellWord } from './words.js';
export type { Wrapper } from './wrappers.js';

/** A redirect of a simple command (its own, or of the statement or group around it). */
export interface ShellRedirect {
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `>&`, `<`, `<&`, `<>`, `<<`, `<<-`, `<<<`. */
  op: string;
  /** The file descriptor written before the operator (`2` of `2>`), or null. */
  fd: string | null;
  /** The file (or descriptor) it names; null for a here-document. */
  target: ShellWord | null;
  /** What a here-document or here-string feeds to stdin. */
  text?: string;
  /**
   * The commands of a process substitution used as the target (`< <(curl …)`, `> >(tee …)`), or of
   * the command substitutions inside a here-string or a target word (`<<< "$(curl …)"`).
   */
  commands?: SimpleCommand[];
}

/** How a command was reached from the line's top level (outermost first). */
export type Via =
  | 'subshell'
  | 'group'
  | 'function'
  | 'substitution'
  | 'process-substitution'
  | 'shell -c'
  | 'eval'
  | 'stdin script'
  | 'written script'
  | 'xargs'
  | 'find -exec';

/** One simple command: the program that runs and what it gets. */
export interface SimpleCommand {
  /** Program and arguments, wrappers removed (`sudo env A=1 rm -rf x` → `rm -rf x`). */
  argv: ShellWord[];
  /** The wrappers looked through, outermost first, each with the words it consumed. */
  wrappers: Wrapper[];
  /** `NAME=value` words before the program (and those given to `env`). */
  assignments: { name: string; value: ShellWord }[];
  /** Its redirects, including those of enclosing statements and groups. */
  redirects: ShellRedirect[];
  /** The commands of the previous pipeline stage, whose output is this command's stdin. */
  pipedFrom: SimpleCommand[];
  /** True when more arguments are appended at run time (`xargs`, `find -exec … {} +`). */
  argsFromInput: boolean;
  /** The command this one was found inside (a substitution's owner, the `bash -c` …), or null. */
  parent: SimpleCommand | null;
  /** How it was reached from the top level, outermost first; empty at the top level. */
  via: Via[];
  /** The name of the innermost function whose body holds it, or null. */
  functionName: string | null;
  /** Source text of the command (of the inner script for commands parsed again from text). */
  text: string;
  /** Position in the order the line lists commands (0-based; a parent precedes its children). */
  index: number;
}

/** The analysis of one command line. */
export interface ShellAnalysis {
  source: string;
  /** Every simple command, in source order (see `SimpleCommand.index`). */
  commands: SimpleCommand[];
  /** Names of the functions the line defines. */
  functions: string[];
  /**
   * Variables the line sets as statements of their own (`X=1`, `export X=1`, `local X=1`), in
   * source order; values as written (`literal` false when they hold expansions). Absent in an
   * analysis built by hand (no commands).
   */
  assignments?: { name: string; value: ShellWord }[];
  /**
   * Names the line sets some other way: `for NAME in …`, `select NAME`, `read NAME…`,
   * `mapfile NAME`, `getopts … NAME`. Their values cannot be known before the line runs. Absent in
   * an analysis built by hand.
   */
  boundNames?: string[];
  /** The grammar could not parse all of the line (or a nested script). */
  errors: boolean;
}

/** How deep scripts nested in strings (`bash -c "eval '…'"`) are parsed again. */
export const MAX_NESTING = 6;

/** Programs that are shells: given no `-c` and no script file, they run what stdin holds. */
export const SHELL_NAMES = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'busybox sh']);

/** The program name of a command: the last path part of its first word, lower-case, without `.exe`. */
export function programName(cmd: Pick<SimpleCommand, 'argv'>): string {
  const first = cmd.argv[0]?.value ?? '';
  let name = PROGRAM_NAMES.get(first);
  if (name === undefined) {
    // `BUN.EXE`, `Deno.exe`: Windows finds programs whatever their case and suffix
    name = (first.split('/').pop() ?? '').toLowerCase().replace(/\.exe$/, '');
    if (PROGRAM_NAMES.size > 4096) PROGRAM_NAMES.clear();
    PROGRAM_NAMES.set(first, name);
  }
  return name;
}

/** programName's results by first word (the rules ask for it many times per command). */
const PROGRAM_NAMES = new Map<string, string>();

interface Ctx {
  via: Via[];
  fn: string | null;
  parent: SimpleCommand | null;
  redirects: ShellRedirect[];
  pipedFrom: SimpleCommand[];
  depth: number;
}

class Analyzer {
  readonly commands: SimpleCommand[] = [];
  readonly functions: string[] = [];
  readonly assignments: { name: string; value: ShellWord }[] = [];
  readonly boundNames: string[] = [];
  errors = false;

  constructor(private readonly parse: (text: string) => Node | null) {}

  /** Parses `text` and visits it; returns the commands it added. */
  script(text: string, ctx: Ctx): SimpleCommand[] {
    const before = this.commands.length;
    if (ctx.depth > MAX_NESTING) {
      this.errors = true;
      return [];
    }
    const root = this.parse(text);
    if (!root) {
      this.errors = true;
      return [];
    }
    if (root.hasError) this.errors = true;
    this.visit(root, ctx);
    return this.commands.slice(before);
  }

  /** Visits a node; returns the commands it added at its own level (not nested ones). */
  visit(node: Node, ctx: Ctx): SimpleCommand[] {
    const added: SimpleCommand[] = [];
    const own = (cmds: SimpleCommand[]): void => {
      for (const c of cmds) if (c.parent === ctx.parent) added.push(c);
    };
    switch (node.type) {
      case 'command':
        own(this.command(node, ctx));
        return added;
      case 'pipeline': {
        let prev = ctx.pipedFrom;
        for (const stage of node.namedChildren) {
          if (!stage) continue;
          const got = this.visit(stage, { ...ctx, pipedFrom: prev });
          own(got);
          prev = got;
        }
        return added;
      }
      case 'redirected_statement': {
        const body = node.childForFieldName('body');
        const redirects: ShellRedirect[] = [];
        const after: Node[] = [];
        for (const child of node.namedChildren) {
          if (!child || child === body || child.id === body?.id) continue;
          redirects.push(...this.redirect(child, ctx, after));
        }
        // redirects alone (`> file` truncates it) are judged as the command `:` with them
        const got = body
          ? this.visit(body, { ...ctx, redirects: [...ctx.redirects, ...redirects] })
          : this.script(`: ${node.text}`, ctx);
        own(got);
        // what the grammar files under a here-document's start line: `cat <<EOF | sh`, `… && x`
        for (const next of after) {
          if (next.type === 'pipeline') {
            let prev = got;
            for (const stage of next.namedChildren) {
              if (!stage) continue;
              const s = this.visit(stage, { ...ctx, pipedFrom: prev });
              own(s);
              prev = s;
            }
          } else {
            own(this.visit(next, ctx));
          }
        }
        return added;
      }
      case 'subshell':
        return this.children(node, { ...ctx, via: [...ctx.via, 'subshell'] });
      case 'compound_statement':
        return this.children(node, { ...ctx, via: [...ctx.via, 'group'] });
      case 'function_definition': {
        const name = node.childForFieldName('name');
        if (name) this.functions.push(name.text);
        const body = node.childForFieldName('body');
        if (body) {
          this.visit(body, { ...ctx, via: [...ctx.via, 'function'], fn: name?.text ?? null, pipedFrom: [] });
        }
        return added;
      }
      case 'variable_assignment': {
        const name = node.childForFieldName('name')?.text ?? '';
        const value = node.childForFieldName('value');
        this.assignments.push({ name, value: value ? wordOf(value) : EMPTY_WORD });
        return this.children(node, ctx);
      }
      case 'for_statement':
      case 'select_statement': {
        const variable = node.childForFieldName('variable');
        if (variable) this.boundNames.push(variable.text);
        return this.children(node, ctx);
      }
      case 'command_substitution':
        return this.children(node, {
          ...ctx,
          via: [...ctx.via, 'substitution'],
          pipedFrom: [],
          redirects: [],
        });
      case 'process_substitution':
        return this.children(node, {
          ...ctx,
          via: [...ctx.via, 'process-substitution'],
          pipedFrom: [],
          redirects: [],
        });
      case 'ERROR':
        this.errors = true;
        return this.children(node, ctx);
      default:
        if (node.isMissing) this.errors = true;
        return this.children(node, ctx);
    }
  }

  private children(node: Node, ctx: Ctx): SimpleCommand[] {
    const added: SimpleCommand[] = [];
    for (const child of node.namedChildren) if (child) added.push(...this.visit(child, ctx));
    return added;
  }

  /** Substitutions inside a word, outermost only, visited as children of `owner`. */
  private substitutions(node: Node, owner: SimpleCommand | null, ctx: Ctx): SimpleCommand[] {
    const found: SimpleCommand[] = [];
    const walk = (n: Node): void => {
      if (SUBSTITUTIONS.has(n.type)) {
        found.push(...this.visit(n, { ...ctx, parent: owner, pipedFrom: [], redirects: [] }));
        return;
      }
      for (const c of n.namedChildren) if (c) walk(c);
    };
    walk(node);
    return found;
  }

  /** Parses one redirect node; nodes to visit after the statement go to `after`. */
  private redirect(node: Node, ctx: Ctx, after: Node[]): ShellRedirect[] {
    if (node.type === 'heredoc_redirect') {
      const out: ShellRedirect[] = [];
      const body = node.namedChildren.find((c) => c?.type === 'heredoc_body');
      const op = node.children.find((c) => c && !c.isNamed)?.text ?? '<<';
      out.push({ op, fd: null, target: null, text: body?.text ?? '' });
      // with an unquoted delimiter the shell expands the body: its `$( )` and backticks run
      const start = node.namedChildren.find((c) => c?.type === 'heredoc_start')?.text ?? '';
      if (body && !/['"\\]/.test(start)) {
        this.substitutions(body, ctx.parent, ctx);
        // the grammar leaves backticks in a body as text
        for (const m of body.text.matchAll(/(?<!\\)`((?:[^`\\]|\\.)*)`/g))
          this.script(m[1]!, { ...ctx, via: [...ctx.via, 'substitution'], pipedFrom: [], redirects: [] });
      }
      for (const child of node.namedChildren) {
        if (!child || ['heredoc_start', 'heredoc_body', 'heredoc_end'].includes(child.type)) continue;
        if (child.type.endsWith('_redirect')) out.push(...this.redirect(child, ctx, after));
        else after.push(child);
      }
      return out;
    }
    if (node.type === 'herestring_redirect') {
      const target = node.namedChildren.find((c) => c && c.type !== 'file_descriptor');
      const commands = target ? this.substitutions(target, ctx.parent, ctx) : [];
      return [
        {
          op: '<<<',
          fd: null,
          target: null,
          text: target ? wordOf(target).value : '',
          ...(commands.length > 0 ? { commands } : {}),
        },
      ];
    }
    if (node.type !== 'file_redirect') return [];
    const fdNode = node.childForFieldName('descriptor');
    const dest =
      node.childForFieldName('destination') ?? node.namedChildren.filter((c) => c !== fdNode).at(-1);
    const op = node.children.find((c) => c && !c.isNamed)?.text ?? '>';
    const r: ShellRedirect = { op, fd: fdNode?.text ?? null, target: dest ? wordOf(dest) : null };
    if (dest && dest.type === 'process_substitution') {
      r.commands = this.visit(dest, { ...ctx, pipedFrom: [] });
    } else if (dest) {
      const commands = this.substitutions(dest, ctx.parent, ctx);
      if (commands.length > 0) r.commands = commands;
    }
    return [r];
  }

  /** One `command` node: the command (and the commands it runs) it adds. */
  private command(node: Node, ctx: Ctx): SimpleCommand[] {
    const start = this.commands.length;
    const words: ShellWord[] = [];
    const wordNodes: Node[] = [];
    const assignments: SimpleCommand['assignments'] = [];
    const redirects: ShellRedirect[] = [...ctx.redirects];
    const after: Node[] = [];
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'variable_assignment') {
        const name = child.childForFieldName('name')?.text ?? '';
        const value = child.childForFieldName('value');
        assignments.push({ name, value: value ? wordOf(value) : EMPTY_WORD });
        wordNodes.push(child);
      } else if (child.type.endsWith('_redirect')) {
        redirects.push(...this.redirect(child, ctx, after));
      } else {
        words.push(wordOf(child));
        wordNodes.push(child);
      }
    }
    const cmd: SimpleCommand = {
      argv: splitIfs(words),
      wrappers: [],
      assignments,
      redirects,
      pipedFrom: ctx.pipedFrom,
      argsFromInput: false,
      parent: ctx.parent,
      via: ctx.via,
      functionName: ctx.fn,
      text: node.text,
      index: this.commands.length,
    };
    this.commands.push(cmd);
    this.noteBound(cmd);
    for (const w of wordNodes) this.substitutions(w, cmd, ctx);
    this.expand(cmd, ctx);
    for (const next of after) this.visit(next, ctx);
    return this.commands.slice(start);
  }

  /** Records the names `read`, `mapfile`/`readarray` and `getopts` set. */
  private noteBound(cmd: SimpleCommand): void {
    const name = programName(cmd);
    const operands = cmd.argv.slice(1).filter((w) => !w.value.startsWith('-'));
    if (name === 'read' || name === 'mapfile' || name === 'readarray') {
      for (const w of operands) if (/^[A-Za-z_]\w*$/.test(w.value)) this.boundNames.push(w.value);
    } else if (name === 'getopts' && operands[1]) {
      this.boundNames.push(operands[1].value);
    }
  }

  /**
   * A shell or `source` reading a script from a process substitution whose output is fixed text
   * (`bash <(echo 'rm -rf x')`, `bash < <(printf …)`, `. <(cat <<EOF …)`): that text is parsed as
   * its script, like text piped into a shell.
   */
  processSubstitutionScripts(): void {
    for (const cmd of [...this.commands]) {
      const name = programName(cmd);
      if (!SHELL_NAMES.has(name) && name !== 'source' && name !== '.') continue;
      const producers = this.commands.filter(
        (c) => c.parent === cmd && c.via.at(-1) === 'process-substitution',
      );
      for (const r of cmd.redirects) if (r.op === '<' && r.commands) producers.push(...r.commands);
      for (const producer of producers) {
        const text = literalOutput(producer);
        if (text === undefined) continue;
        this.script(text, {
          via: [...cmd.via, 'stdin script'],
          fn: cmd.functionName,
          parent: cmd,
          redirects: [],
          pipedFrom: [],
          depth: cmd.via.length + 1,
        });
      }
    }
  }

  /** Looks through wrappers and runs nested scripts of `cmd` (see the file comment). */
  private expand(cmd: SimpleCommand, ctx: Ctx): void {
    const u = unwrap(cmd.argv);
    cmd.argv = u.argv;
    cmd.wrappers = u.wrappers;
    cmd.assignments.push(...u.assignments);
    const inner: Ctx = { ...ctx, parent: cmd, pipedFrom: [], redirects: [], depth: ctx.depth + 1 };
    if (u.script !== undefined) {
      this.script(u.script.text, { ...inner, via: [...ctx.via, u.script.via] });
    }
    // shell commands given in options (`git -c alias.x='!…'`, `ssh -o ProxyCommand=…`) and in
    // variables the program runs (`GIT_SSH_COMMAND=… git fetch`, `PAGER=… man x`)
    const scripts = [...u.optionScripts];
    if (cmd.argv.length > 0) {
      for (const a of cmd.assignments) if (COMMAND_VARIABLES.has(a.name)) scripts.push(a.value.value);
    }
    for (const text of scripts) this.script(text, { ...inner, via: [...ctx.via, 'shell -c'] });
    for (const run of u.runs) {
      const child: SimpleCommand = {
        argv: run.argv,
        wrappers: [],
        assignments: [],
        redirects: [],
        pipedFrom: run.via === 'xargs' ? cmd.pipedFrom : [],
        argsFromInput: run.argsFromInput,
        parent: cmd,
        via: [...ctx.via, run.via],
        functionName: ctx.fn,
        text: run.argv.map((w) => w.raw).join(' '),
        index: this.commands.length,
      };
      this.commands.push(child);
      this.expand(child, { ...ctx, via: child.via, depth: ctx.depth + 1 });
    }
    // a shell reading its script from stdin: a here-document, a here-string, or literal text
    // piped in by echo/printf/cat
    if (u.readsStdinScript) {
      for (const r of cmd.redirects) {
        if (r.text !== undefined && (r.op.startsWith('<<') || r.op === '<<<')) {
          this.script(r.text, { ...inner, via: [...ctx.via, 'stdin script'] });
        }
      }
      for (const producer of cmd.pipedFrom) {
        const text = literalOutput(producer);
        if (text !== undefined) this.script(text, { ...inner, via: [...ctx.via, 'stdin script'] });
      }
    }
    // fixed text written into a shell script file (`echo … > x.sh`, `cat <<EOF > x.sh`,
    // `printf … | tee x.sh`) is judged as the script it becomes (detect.ts asks, never refuses)
    const written = [
      ...(cmd.redirects.some((r) => WRITE_OPS.has(r.op) && r.target && SCRIPT_FILE.test(r.target.value))
        ? [literalOutput(cmd)]
        : []),
      ...(programName(cmd) === 'tee' && cmd.argv.slice(1).some((w) => SCRIPT_FILE.test(w.value))
        ? cmd.pipedFrom.map((p) => literalOutput(p))
        : []),
    ];
    for (const text of written)
      if (text !== undefined) this.script(text, { ...inner, via: [...ctx.via, 'written script'] });
  }
}

const EMPTY_WORD: ShellWord = { raw: '', value: '', literal: true, glob: false, substitution: false };

/**
 * Lists the simple commands of a shell command line (see the file comment).
 * @throws when the grammar cannot be loaded (a broken install); callers fall back to patterns.
 */
export async function analyzeShell(source: string): Promise<ShellAnalysis> {
  const parser = await bashParser();
  const trees: { delete(): void }[] = [];
  const analyzer = new Analyzer((text) => {
    const tree = parser.parse(text);
    if (!tree) return null;
    trees.push(tree);
    return tree.rootNode;
  });
  try {
    analyzer.script(source, { via: [], fn: null, parent: null, redirects: [], pipedFrom: [], depth: 0 });
    analyzer.processSubstitutionScripts();
  } finally {
    for (const t of trees) t.delete();
  }
  return {
    source,
    commands: analyzer.commands,
    functions: analyzer.functions,
    assignments: analyzer.assignments,
    boundNames: analyzer.boundNames,
    errors: analyzer.errors,
  };
}
