import { ApiError } from '@garrison/core';
import { GENERATED_FILES, managedKeys, type GeneratedFile } from './render.js';
import { NESTED_LINES } from './profile.js';

/**
 * Checks raw lines an admin adds to a generated file before they are saved: they must read as the
 * game's config syntax (statements `key = value;`, `key[] = {…};`, `class Name {…};`, strings closed on
 * their line, braces balanced, every statement ended by `;`; comments and `#` directives allowed), and
 * must not set a key Garrison writes itself, which the game would then find twice. Returns what is
 * wrong, with its line number, or null. An `#include` of a file outside the server's own folder is
 * not a mistake but a way to have the game read any file of the host (and show it in its log): 400
 * `VALIDATION_ERROR`.
 */
export function extraLinesProblem(
  file: GeneratedFile,
  lines: readonly string[],
  managed = managedKeys(file),
  field = 'extra_lines',
): string | null {
  if (!lines.length) return null;
  try {
    new Checker(lines.join('\n'), managed).statements(0);
    return null;
  } catch (err) {
    if (err instanceof OutsideInclude)
      throw new ApiError('VALIDATION_ERROR', `field '${field}' of ${file}: line ${err.line}: ${err.message}`);
    if (err instanceof Problem) return `line ${err.line}: ${err.message}`;
    throw err;
  }
}

class Problem extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

class OutsideInclude extends Problem {}

/**
 * Why an `#include` line may not stay: its file must be named in quotes (or <>) by a relative path that
 * stays in the folder of the file that includes it, the server's own folder; null when it may.
 */
function includeProblem(directive: string): string | null {
  if (!/^#\s*include\b/i.test(directive)) return null;
  const target = /^#\s*include\s*(?:"([^"]*)"|<([^>]*)>)\s*(\/\/.*)?$/i.exec(directive);
  const name = target ? (target[1] ?? target[2] ?? '') : null;
  const rule = "only a file in the server's own folder may be included (a relative path, without .., a drive or a leading /)";
  if (name === null || !name.trim()) return `an #include must name its file in quotes: ${rule}`;
  const parts = name.split(/[\\/]/);
  if (/^[\\/]/.test(name) || /^[A-Za-z]:/.test(name) || parts.includes('..'))
    return `#include "${name}" names a file outside the server's own folder: ${rule}`;
  return null;
}

const IDENT = /(?=[0-9]*[A-Za-z_])[A-Za-z0-9_]+/y;
// A bare value runs to the `;`; a `//` or `/*` after it begins a comment.
const BARE = /(?:[^;{},"\n/]|\/(?![/*]))+/y;

class Checker {
  private i = 0;

  constructor(
    private readonly text: string,
    private readonly managed: Map<string, string>,
  ) {}

  private line(at = this.i): number {
    let n = 1;
    for (let k = 0; k < at && k < this.text.length; k += 1) if (this.text[k] === '\n') n += 1;
    return n;
  }

  private fail(message: string, at = this.i): never {
    throw new Problem(this.line(at), message);
  }

  /** Skips blanks, comments and `#` directive lines; stops at anything else. */
  private skip(): void {
    for (;;) {
      while (this.i < this.text.length && /\s/.test(this.text[this.i])) this.i += 1;
      if (this.text.startsWith('//', this.i) || (this.text[this.i] === '#' && this.atLineStart())) {
        const start = this.i;
        while (this.i < this.text.length && this.text[this.i] !== '\n') this.i += 1;
        if (this.text[start] === '#') {
          const refused = includeProblem(this.text.slice(start, this.i).trim());
          if (refused) throw new OutsideInclude(this.line(start), refused);
        }
      } else if (this.text.startsWith('/*', this.i)) {
        const end = this.text.indexOf('*/', this.i + 2);
        if (end < 0) this.fail('a /* comment is not closed with */');
        this.i = end + 2;
      } else return;
    }
  }

  private atLineStart(): boolean {
    const before = this.text.lastIndexOf('\n', this.i - 1);
    return this.text.slice(before + 1, this.i).trim() === '';
  }

  private ident(): string | null {
    IDENT.lastIndex = this.i;
    const m = IDENT.exec(this.text);
    if (!m) return null;
    this.i += m[0].length;
    return m[0];
  }

  private expect(char: string, what: string, at = this.i): void {
    this.skip();
    if (this.text[this.i] !== char) this.fail(what, at);
    this.i += 1;
  }

  /** Statements until the end (depth 0) or a closing brace (inside a class). */
  statements(depth: number): void {
    for (;;) {
      this.skip();
      if (this.i >= this.text.length) return;
      if (this.text[this.i] === '}') {
        if (depth === 0) this.fail("'}' closes nothing");
        return;
      }
      const start = this.i;
      const name =
        this.ident() ??
        this.fail(`expected a setting (key = value;) or a class, found ${JSON.stringify(this.text.slice(this.i, this.i + 20))}`);
      if (name === 'class') this.classBody(depth, start);
      else this.assignment(name, depth, start);
    }
  }

  private refuseManaged(key: string, depth: number, at: number): void {
    if (depth > 0) return;
    const fields = this.managed.get(key.toLowerCase());
    if (fields === undefined) return;
    this.fail(
      fields
        ? `${key} is written by Garrison: use ${fields.includes(' ') ? fields : `the field '${fields}'`} instead`
        : `${key} is written by Garrison itself`,
      at,
    );
  }

  private classBody(depth: number, start: number): void {
    this.skip();
    const name = this.ident() ?? this.fail('expected the name of the class');
    this.refuseManaged(name, depth, start);
    this.skip();
    if (this.text[this.i] === ':') {
      this.i += 1;
      this.skip();
      if (this.ident() === undefined) this.fail('expected the name of the class inherited from');
      this.skip();
    }
    if (this.text[this.i] === ';') {
      this.i += 1; // a declaration without a body
      return;
    }
    this.expect('{', `expected '{' after class ${name}`);
    this.statements(depth + 1);
    if (this.text[this.i] !== '}') this.fail(`class ${name} is not closed with '};'`, start);
    this.i += 1;
    this.expect(';', `the '}' closing class ${name} needs a ';' after it`, this.i - 1);
  }

  private assignment(key: string, depth: number, start: number): void {
    this.refuseManaged(key, depth, start);
    this.skip();
    const isArray = this.text.startsWith('[]', this.i);
    if (isArray) this.i += 2;
    this.skip();
    if (this.text.startsWith('+=', this.i)) this.i += 2;
    else this.expect('=', `expected '=' after ${key}`);
    this.value(isArray);
    this.skip();
    if (this.text[this.i] !== ';') this.fail(`the setting of ${key} does not end with ';'`, start);
    this.i += 1;
  }

  private value(isArray: boolean): void {
    this.skip();
    const c = this.text[this.i];
    if (c === '"') return this.string();
    if (c === '{') {
      if (!isArray) this.fail('a list { … } belongs to a key written with [] (key[] = {…};)');
      return this.list();
    }
    BARE.lastIndex = this.i;
    const m = BARE.exec(this.text);
    if (!m || !m[0].trim()) this.fail('expected a value');
    this.i += m[0].length;
  }

  private string(): void {
    const start = this.i;
    this.i += 1;
    for (;;) {
      const c = this.text[this.i];
      if (c === undefined || c === '\n') this.fail('a string is not closed on its line (a quote inside one is written "")', start);
      this.i += 1;
      if (c === '"') {
        if (this.text[this.i] !== '"') return;
        this.i += 1;
      }
    }
  }

  private list(): void {
    const start = this.i;
    this.i += 1;
    for (;;) {
      this.skip();
      if (this.i >= this.text.length) this.fail("a list is not closed with '}'", start);
      if (this.text[this.i] === '}') {
        this.i += 1;
        return;
      }
      this.value(true);
      this.skip();
      if (this.text[this.i] === ',') this.i += 1;
      else if (this.text[this.i] !== '}') this.fail("expected ',' or '}' in a list");
    }
  }
}

/** The extra lines of each section that has them: what is wrong with them, or null (ConfigGenerator.checkSection). */
export function checkSection(section: string, values: Record<string, unknown>): string | null {
  const file = (Object.keys(GENERATED_FILES) as GeneratedFile[]).find((f) => GENERATED_FILES[f].section === section);
  if (!file) return null;
  const problem = extraLinesProblem(file, (values.extra_lines as string[] | undefined) ?? []);
  if (problem) return `extra_lines ${problem}`;
  // Lines kept inside a class Garrison writes: checked alike, against the names that class has from Garrison.
  for (const [field, nested] of Object.entries(NESTED_LINES)) {
    if (nested.file !== file) continue;
    const managed = new Map(nested.managed.map((name) => [name.toLowerCase(), '']));
    const inner = extraLinesProblem(file, (values[field] as string[] | undefined) ?? [], managed, field);
    if (inner) return `${field} ${inner}`;
  }
  return null;
}
