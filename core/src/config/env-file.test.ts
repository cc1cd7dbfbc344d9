// The .env writer round trip: writer → file → the daemon's reader (dotenv's parse, via loadSecrets).
import {
  lstatSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'dotenv';
import { describe, expect, it } from 'vitest';
import { HermesHome } from '../home/home.js';
import { editEnvFile, EnvValueError } from './env-file.js';
import { loadSecrets, setSecret } from './secrets.js';

const freshHome = () => new HermesHome(mkdtempSync(join(tmpdir(), 'hermes-env-')));

const TABLE: Array<[string, string]> = [
  ['backslash and double quote (the IRC_PASSWORD case)', 'a\\b"c'],
  ['a tab', 'a\tb'],
  ['a hash', 'pa#ss'],
  ['a leading hash', '#secret'],
  ['space then hash', 'x #y'],
  ['dollar and braces', '$HOME ${USER} $(id)'],
  ['single quote', "it's"],
  ['double quotes', 'say "hi"'],
  ['backquote', 'a`b'],
  ['single and double quotes', `it's "x"`],
  ['all three quotes, no hash', `'a" b\`c`],
  ['single quote and hash', "it's #1"],
  ['double quote and hash', 'a"#b'],
  ['backslashes', 'C:\\path\\to\\x'],
  ['a trailing backslash', 'abc\\'],
  ['a literal backslash-n', 'line1\\nline2'],
  ['leading and trailing spaces', '  padded  '],
  ['only spaces', '   '],
  ['an equals sign', 'a=b=c'],
  ['an empty value', ''],
  ['a value wrapped in quotes', '"quoted"'],
  ['a value wrapped in single quotes', "'x'"],
  ['a newline', 'line1\nline2'],
  ['a carriage return and newline', 'a\r\nb'],
  ['non-ASCII', 'naïve – 日本語 🙂'],
  ['a plain key', 'sk-or-v1-0123456789abcdef'],
  ['punctuation soup', '!%&()*+,-./:;<=>?@[]^_{|}~'],
];

function roundTrip(value: string, before = ''): string | undefined {
  const out = editEnvFile(Buffer.from(before, 'utf8'), 'KEY', value);
  return parse(out.toString('utf8')).KEY;
}

describe('.env writer: every value reads back byte for byte', () => {
  it.each(TABLE)('%s', (_, value) => {
    const home = freshHome();
    writeFileSync(home.envFile, '# keys\nA=1\n\nB="two words"\n');
    setSecret(home, 'KEY', value);
    expect(loadSecrets(home).KEY).toBe(value);
    expect(loadSecrets(home)).toMatchObject({ A: '1', B: 'two words' });
    // and written again over itself (an existing line replaced in place)
    setSecret(home, 'KEY', `${value}!`);
    expect(loadSecrets(home).KEY).toBe(`${value}!`);
  });

  it('every printable ASCII character, alone, inside a word and with spaces around it', () => {
    for (let c = 0x20; c < 0x7f; c++) {
      const ch = String.fromCharCode(c);
      for (const v of [ch, `a${ch}b`, ` ${ch} `, `${ch}${ch}`])
        expect(roundTrip(v), JSON.stringify(v)).toBe(v);
    }
  });

  it('random values from the awkward characters either read back exactly or are refused, never changed', () => {
    const alphabet = ['a', ' ', '\t', '#', '$', "'", '"', '`', '\\', '=', 'n', 'r', '\n', ':', 'é'];
    let seed = 42;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    let written = 0;
    for (let i = 0; i < 2000; i++) {
      const v = Array.from({ length: 1 + rand(10) }, () => alphabet[rand(alphabet.length)]).join('');
      try {
        expect(roundTrip(v, 'X=1\n'), JSON.stringify(v)).toBe(v);
        written++;
      } catch (err) {
        expect(err, JSON.stringify(v)).toBeInstanceOf(EnvValueError);
      }
    }
    expect(written).toBeGreaterThan(1900);
  });

  it('refuses what cannot be represented, naming the variable, and leaves the file alone', () => {
    const home = freshHome();
    writeFileSync(home.envFile, 'A=1\n');
    expect(() => setSecret(home, 'IRC_PASSWORD', 'a\0b')).toThrow(/IRC_PASSWORD.*NUL/);
    expect(() => setSecret(home, 'IRC_PASSWORD', 'a\nb\\nc')).toThrow(EnvValueError);
    expect(() => setSecret(home, 'IRC_PASSWORD', 'a\nb\\nc')).toThrow(/IRC_PASSWORD/);
    expect(() => setSecret(home, 'BAD NAME', 'x')).toThrow(/Invalid variable name/);
    expect(readFileSync(home.envFile, 'utf8')).toBe('A=1\n');
  });
});

describe('.env writer: the rest of the file is kept', () => {
  it('updating one key keeps every other line byte-identical and the key in its place', () => {
    const home = freshHome();
    const original =
      '# my keys\n\nexport OPENROUTER_API_KEY=sk-or-1   # main\nIRC_PASSWORD="old"\n' +
      "  SPACED = 'x y'\n# trailing comment\nLAST=z\n";
    writeFileSync(home.envFile, original);
    setSecret(home, 'IRC_PASSWORD', 'a\\b"c');
    const after = readFileSync(home.envFile, 'utf8');
    expect(after).toBe(original.replace('IRC_PASSWORD="old"', 'IRC_PASSWORD="a\\b"c"'));
    expect(loadSecrets(home)).toEqual({
      OPENROUTER_API_KEY: 'sk-or-1',
      IRC_PASSWORD: 'a\\b"c',
      SPACED: 'x y',
      LAST: 'z',
    });
  });

  it('a duplicate assignment is folded into the first one; removal removes them all', () => {
    const home = freshHome();
    writeFileSync(home.envFile, 'K=1\nA=a\nK=2\n');
    setSecret(home, 'K', 'new');
    expect(readFileSync(home.envFile, 'utf8')).toBe('K=new\nA=a\n');
    setSecret(home, 'K', undefined);
    expect(readFileSync(home.envFile, 'utf8')).toBe('A=a\n');
  });

  it('a line written `export KEY=` keeps its export (the file may be sourced by a shell)', () => {
    const home = freshHome();
    writeFileSync(home.envFile, 'A=1\nexport KEY=\n  export  OTHER=x\n');
    setSecret(home, 'KEY', 'v v');
    setSecret(home, 'OTHER', 'y');
    expect(readFileSync(home.envFile, 'utf8')).toBe('A=1\nexport KEY="v v"\n  export  OTHER=y\n');
    expect(loadSecrets(home)).toEqual({ A: '1', KEY: 'v v', OTHER: 'y' });
  });

  it('a file starting with a byte order mark (Notepad): its first variable is replaced (BOM kept) and removed', () => {
    const home = freshHome();
    writeFileSync(home.envFile, '\uFEFFKEY=old\nA=1\n');
    setSecret(home, 'KEY', 'new');
    expect(readFileSync(home.envFile, 'utf8')).toBe('\uFEFFKEY=new\nA=1\n');
    setSecret(home, 'KEY', undefined);
    expect(readFileSync(home.envFile, 'utf8')).toBe('A=1\n'); // the mark went with its line
    expect(loadSecrets(home)).toEqual({ A: '1' });
  });

  it('a lock left by a process that died is taken over', () => {
    const home = freshHome();
    writeFileSync(home.envFile, 'A=1\n');
    const lock = `${home.envFile}.lock`;
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    setSecret(home, 'B', '2');
    expect(loadSecrets(home)).toEqual({ A: '1', B: '2' });
    expect(() => statSync(lock)).toThrow();
  });

  it('a symlinked .env is written at its target (the link stays), mode 0600', () => {
    const home = freshHome();
    const target = join(mkdtempSync(join(tmpdir(), 'hermes-dotfiles-')), 'hermes.env');
    writeFileSync(target, 'A=1\n', { mode: 0o600 });
    symlinkSync(target, home.envFile);
    setSecret(home, 'KEY', 'v');
    expect(lstatSync(home.envFile).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('A=1\nKEY=v\n');
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(loadSecrets(home)).toEqual({ A: '1', KEY: 'v' });
  });

  it('a file without a final newline gets one only after the new line', () => {
    const home = freshHome();
    writeFileSync(home.envFile, '# c\nA=1');
    setSecret(home, 'B', '2');
    expect(readFileSync(home.envFile, 'utf8')).toBe('# c\nA=1\nB=2\n');
  });
});
