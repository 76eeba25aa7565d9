import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = new URL('../src/', import.meta.url).pathname;

function sources(dir = SRC): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : [];
  });
}

const files = sources().map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }));
/** The code of a file without its comments, so that prose about a rule never breaks it. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/**
 * The shape the server keeps as it grows (docs/architecture.md): each rule is a place things go, and a
 * file that breaks one is named.
 */
describe('the server keeps its shape', () => {
  it('keeps every file readable in one sitting (at most 300 lines), the composition root under 120', () => {
    const long = files.filter((f) => f.text.split('\n').length > 300).map((f) => f.path);
    assert.deepEqual(long, []);
    assert.ok(files.find((f) => f.path === 'app.ts')!.text.split('\n').length < 120, 'app.ts under 120 lines');
  });

  it('queries the database only in db/ (repositories), nowhere else', () => {
    const query = /\bfrom 'objection'|\.query\(|\.knex\(|\bknex\(|\.transaction\(|\bwhereRaw\(/;
    const outside = files.filter((f) => !f.path.startsWith('db/') && query.test(code(f.text))).map((f) => f.path);
    assert.deepEqual(outside, []);
  });

  it('records the audit trail in services only, never in a route handler or the HTTP layer', () => {
    const outside = files.filter((f) => (f.path.endsWith('routes.ts') || f.path.startsWith('http/')) && /\.record\(/.test(code(f.text))).map((f) => f.path);
    assert.deepEqual(outside, []);
  });

  it('waits and repeats only through the job runner and its clock: no bare timer elsewhere', () => {
    const timer = /(?<![.\w])setTimeout\(|(?<![.\w])setInterval\(|node:timers\/promises|\bDate\.now\(\)/;
    const outside = files.filter((f) => !f.path.startsWith('jobs/') && timer.test(code(f.text))).map((f) => f.path);
    assert.deepEqual(outside, []);
  });

  it('registers every feature module in the one list, features.ts', () => {
    const list = files.find((f) => f.path === 'features.ts')!.text;
    const modules = files.filter((f) => /^[\w-]+\/module\.ts$/.test(f.path)).map((f) => f.path);
    assert.ok(modules.length > 20, `the feature folders' modules: ${modules.join(', ')}`);
    assert.deepEqual(modules.filter((path) => !list.includes(`'./${path.replace(/\.ts$/, '.js')}'`)), []);
  });

  it('starts no work in a constructor: no subscription or job outside start()', () => {
    const constructors = files.flatMap((f) => {
      const body = constructorBody(code(f.text));
      return body && /\.subscribe\(|\.every\(|\.after\(/.test(body) ? [f.path] : [];
    });
    assert.deepEqual(constructors, []);
  });
});

/** The body of the first constructor in `text`, found by matching its parentheses and braces. */
function constructorBody(text: string): string | null {
  let i = text.indexOf('constructor(');
  if (i < 0) return null;
  const skip = (open: string, close: string) => {
    let depth = 0;
    for (; i < text.length; i += 1) {
      if (text[i] === open) depth += 1;
      else if (text[i] === close && --depth === 0) return i++;
    }
    return i;
  };
  i = text.indexOf('(', i);
  skip('(', ')');
  const start = text.indexOf('{', i);
  i = start;
  return text.slice(start, skip('{', '}'));
}
