/**
 * A tolerant reader of the game's config syntax, for importing files people wrote by hand: it reads what
 * the game reads and more (missing semicolons, trailing commas, CRLF, `true`/`false`, bare words, keys in
 * any case) and never gives up on a file: what it cannot read is reported with its line and skipped.
 * Unlike the strict reader of the testkit (which checks what Garrison writes), this one is for input.
 */
export type CfgValue = string | number | boolean | CfgValue[];

export interface CfgAssignment {
  kind: 'value';
  /** As written (`hostName`); compare in lower case. */
  key: string;
  /** `key[] = {…}` (or `+=`, which `append` marks). */
  array: boolean;
  append: boolean;
  value: CfgValue;
  file: string;
  line: number;
}

export interface CfgClassNode {
  kind: 'class';
  name: string;
  base: string | null;
  /** `class Name;`: declared without a body. */
  declaration: boolean;
  entries: CfgNode[];
  file: string;
  line: number;
}

export type CfgNode = CfgAssignment | CfgClassNode;

interface CfgProblem {
  file: string;
  line: number;
  column: number;
  message: string;
  /** `syntax`: the file is not the game's syntax there; `include`: an #include not followed; `directive`: another directive, not read. */
  kind: 'syntax' | 'include' | 'directive';
}

/** What an `#include` names: its text, or why it is not read (outside the game folder, missing). */
export type IncludeReader = (name: string, from: string) => { file: string; text: string } | { refused: string };

export interface CfgDocument {
  entries: CfgNode[];
  problems: CfgProblem[];
  /** The files read through `#include`, in order. */
  included: string[];
}

const MAX_INCLUDE_DEPTH = 8;

/** A key or class name: letters, digits and `_`, a digit first too (basic.cfg's `3D_Performance`). */
const WORD = /(?=[0-9]*[A-Za-z_])[A-Za-z0-9_]+/y;
function wordAt(src: string, at: number): string | undefined {
  WORD.lastIndex = at;
  return WORD.exec(src)?.[0];
}

/** Reads `text` (the file `file`), following `#include` through `include` when given. */
export function readCfg(text: string, file: string, include?: IncludeReader): CfgDocument {
  const doc: CfgDocument = { entries: [], problems: [], included: [] };
  doc.entries = readInto(text, file, include, doc, 0);
  return doc;
}

function readInto(text: string, file: string, include: IncludeReader | undefined, doc: CfgDocument, depth: number): CfgNode[] {
  const src = text.replace(/\r\n?/g, '\n').replace(/^\uFEFF/, '');
  let i = 0;
  const lineAt = (at: number) => src.slice(0, at).split('\n').length;
  const columnAt = (at: number) => at - src.lastIndexOf('\n', at - 1);
  const problem = (message: string, at = i, kind: CfgProblem['kind'] = 'syntax') =>
    doc.problems.push({ file, line: lineAt(at), column: columnAt(at), message, kind });

  /** Skips blanks and comments; directive lines are handled by the caller. */
  const skip = () => {
    for (;;) {
      while (i < src.length && /\s/.test(src[i])) i += 1;
      if (src.startsWith('//', i)) while (i < src.length && src[i] !== '\n') i += 1;
      else if (src.startsWith('/*', i)) {
        const end = src.indexOf('*/', i + 2);
        if (end < 0) {
          problem('a comment that never ends');
          i = src.length;
        } else i = end + 2;
      } else return;
    }
  };
  /** After an error: on to the next `;` or line end, so one bad line costs one line. */
  const recover = () => {
    while (i < src.length && src[i] !== ';' && src[i] !== '\n') i += 1;
    if (src[i] === ';') i += 1;
  };
  /** Whether the statement ended with its `;`. */
  const endOfStatement = () => {
    // A missing `;` is forgiven when the statement ends at its line or before a `}`.
    while (i < src.length && (src[i] === ' ' || src[i] === '\t')) i += 1;
    if (src[i] !== ';') return false;
    i += 1;
    return true;
  };
  let settings = 0;
  let ended = 0;
  let classes = 0;

  const scalar = (bare: string): CfgValue => {
    const t = bare.trim();
    // A number, unless it is a whole number too long to be exact (a Steam ID), which stays text.
    if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return /^[+-]?\d+$/.test(t) && !Number.isSafeInteger(Number(t)) ? t : Number(t);
    if (/^true$/i.test(t)) return true;
    if (/^false$/i.test(t)) return false;
    return t;
  };

  const value = (): CfgValue | undefined => {
    skip();
    if (src[i] === '"') {
      let out = '';
      i += 1;
      for (;;) {
        if (i >= src.length || src[i] === '\n') {
          problem('a string that never ends');
          return out;
        }
        if (src[i] === '"') {
          if (src[i + 1] === '"') {
            out += '"';
            i += 2;
            continue;
          }
          i += 1;
          return out;
        }
        out += src[i];
        i += 1;
      }
    }
    if (src[i] === '{') {
      const opened = i;
      i += 1;
      const items: CfgValue[] = [];
      for (;;) {
        skip();
        if (i >= src.length) {
          problem('an array that never ends', opened);
          return items;
        }
        if (src[i] === '}') {
          i += 1;
          return items;
        }
        if (src[i] === ',') {
          i += 1; // an empty element or a trailing comma
          continue;
        }
        const item = value();
        if (item === undefined) return items;
        items.push(item);
      }
    }
    // A bare word or number: up to the end of the statement, the element or the line.
    const start = i;
    while (i < src.length && !/[;,}\n]/.test(src[i]) && !src.startsWith('//', i)) i += 1;
    const bare = src.slice(start, i);
    if (!bare.trim()) {
      problem('a value is missing', start);
      return undefined;
    }
    return scalar(bare);
  };

  const body = (closing: boolean): CfgNode[] => {
    const entries: CfgNode[] = [];
    for (;;) {
      skip();
      if (i >= src.length) {
        if (closing) problem('a class that never ends');
        return entries;
      }
      if (src[i] === '}') {
        if (!closing) {
          problem('a } without its class');
          i += 1;
          continue;
        }
        i += 1;
        endOfStatement();
        return entries;
      }
      if (src[i] === '#') {
        const end = src.indexOf('\n', i);
        const directive = src.slice(i, end < 0 ? src.length : end).trim();
        const at = i;
        i = end < 0 ? src.length : end;
        const inc = /^#include\s+["<]([^">]+)[">]/.exec(directive);
        if (!inc) {
          problem('a directive other than #include is not read', at, 'directive');
          continue;
        }
        if (!include) problem(`#include ${inc[1]} is not followed here`, at, 'include');
        else if (depth >= MAX_INCLUDE_DEPTH) problem(`#include ${inc[1]}: includes nested too deep`, at, 'include');
        else {
          const read = include(inc[1], file);
          if ('refused' in read) problem(`#include ${inc[1]}: ${read.refused}`, at, 'include');
          else {
            doc.included.push(read.file);
            entries.push(...readInto(read.text, read.file, include, doc, depth + 1));
          }
        }
        continue;
      }
      const at = i;
      const word = wordAt(src, i);
      if (!word) {
        problem('a setting cannot start with this character');
        recover();
        continue;
      }
      i += word.length;
      if (word.toLowerCase() === 'class') {
        skip();
        const name = wordAt(src, i);
        if (!name) {
          problem('a class without a name', at);
          recover();
          continue;
        }
        i += name.length;
        skip();
        let base: string | null = null;
        if (src[i] === ':') {
          i += 1;
          skip();
          base = wordAt(src, i) ?? null;
          i += base?.length ?? 0;
          skip();
        }
        if (src[i] === '{') {
          i += 1;
          classes += 1;
          entries.push({ kind: 'class', name, base, declaration: false, entries: body(true), file, line: lineAt(at) });
        } else {
          endOfStatement();
          entries.push({ kind: 'class', name, base, declaration: true, entries: [], file, line: lineAt(at) });
        }
        continue;
      }
      skip();
      let array = false;
      if (src.startsWith('[]', i)) {
        array = true;
        i += 2;
        skip();
      }
      let append = false;
      if (src.startsWith('+=', i)) {
        append = true;
        i += 2;
      } else if (src[i] === '=') i += 1;
      else {
        problem('expected = after the key', at);
        recover();
        continue;
      }
      const v = value();
      if (v === undefined) {
        recover();
        continue;
      }
      entries.push({ kind: 'value', key: word, array, append, value: v, file, line: lineAt(at) });
      settings += 1;
      if (endOfStatement()) ended += 1;
    }
  };

  const entries = body(false);
  // Settings, but never one `key = value;` nor a `class … { … }`: another kind of file (an environment
  // file, a list of words) read as the game's. Refused as a whole, so that no line of it reaches a plan.
  if (settings > 0 && ended === 0 && classes === 0)
    doc.problems.push({
      file,
      line: 1,
      column: 1,
      message: "not the game's config: not one `key = value;` or class in it",
      kind: 'syntax',
    });
  return entries;
}
