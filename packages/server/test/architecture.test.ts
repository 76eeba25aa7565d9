import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = new URL('../src/', import.meta.url).pathname;

function sources(dir = SRC): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

const files = sources().map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }));
/** The code of a file without its comments, so that prose about a rule never breaks it. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, '')).replace(/^\s*\/\/.*$/gm, '');

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

  it('leaves rows to the repositories: no stored JSON parsed, no stored flag converted, no Database handle outside db/', () => {
    const columnRead = /JSON\.parse\(\w+\.\w+\)|Boolean\((?:row|r|\w+Row)\.\w+\)/;
    const reads = files.filter((f) => !f.path.startsWith('db/') && columnRead.test(code(f.text))).map((f) => f.path);
    assert.deepEqual(reads, [], 'a repository hands back domain objects (lists, objects, booleans)');
    // The composition registers it; a service asks DatabaseAccess (db/access.ts) for a transaction or the database's own tools.
    const composition = ['compose.ts', 'cli/store.ts', 'tokens.ts'];
    const handles = files
      .filter((f) => !f.path.startsWith('db/') && !composition.includes(f.path) && /TOKENS\.Database\b/.test(code(f.text)))
      .map((f) => f.path);
    assert.deepEqual(handles, []);
  });

  it('reads and writes tables with knex alone: no objection model in a repository', () => {
    const onObjection = files
      .filter((f) => f.path.startsWith('db/') && f.path !== 'db/errors.ts' && /from 'objection'/.test(f.text))
      .map((f) => f.path);
    assert.deepEqual(onObjection, []);
  });

  it('records the audit trail in services only, never in a route handler or the HTTP layer', () => {
    const outside = files
      .filter((f) => (f.path.endsWith('routes.ts') || f.path.startsWith('http/')) && /\.record\(/.test(code(f.text)))
      .map((f) => f.path);
    assert.deepEqual(outside, []);
  });

  it('waits and repeats only through the job runner and its clock: no bare timer elsewhere', () => {
    const timer = /(?<![.\w])setTimeout\(|(?<![.\w])setInterval\(|node:timers\/promises|\bDate\.now\(\)/;
    const outside = files.filter((f) => !f.path.startsWith('jobs/') && timer.test(code(f.text))).map((f) => f.path);
    assert.deepEqual(outside, []);
  });

  it('gives each feature its own settings: only the composition and the command see the whole Settings type', () => {
    const whole = new Set(['settings.ts', 'tokens.ts', 'index.ts', 'app.ts', 'compose.ts']);
    const namesWhole = (text: string) => /\bSettings\b/.test(code(text).replace(/TOKENS\.Settings/g, ''));
    const outside = files.filter((f) => !whole.has(f.path) && !f.path.startsWith('cli/') && namesWhole(f.text)).map((f) => f.path);
    // A service takes its feature's slice (BackupSettings, Pick<HttpSettings, …>), declared in its folder's settings.ts.
    assert.deepEqual(outside, []);
  });

  it('registers every feature module in the one list, features.ts', () => {
    const list = files.find((f) => f.path === 'features.ts')!.text;
    const modules = files.filter((f) => /^[\w-]+\/module\.ts$/.test(f.path)).map((f) => f.path);
    assert.ok(modules.length > 20, `the feature folders' modules: ${modules.join(', ')}`);
    assert.deepEqual(
      modules.filter((path) => !list.includes(`'./${path.replace(/\.ts$/, '.js')}'`)),
      [],
    );
  });

  it('starts no work in a constructor: no subscription, job, listener, timer or connection outside start()', () => {
    const busy = everySource.flatMap((f) =>
      constructorBodies(code(f.text))
        .filter((body) => SIDE_EFFECT.test(body))
        .map(() => f.path),
    );
    assert.deepEqual(busy, []);
  });

  it('tells a bare catch from one that names what it expects', () => {
    const bare = [
      'a.catch(() => null);',
      'a.catch(async () => {});',
      'a.catch((_err) => []);',
      'a.then((x) => x, () => false);',
      'try { f(); } catch { return null; }',
      'try { f(); } catch (e) { return null; }',
    ];
    const named = [
      'a.catch(ifMissing([]));',
      "a.catch((err) => logger.warn({ err }, 'failed'));",
      'a.then((x) => x, ifMissing(0));',
      'a.then((x) => x);',
      'try { f(); } catch (err) { expectOnly(err, SyntaxError); return null; }',
      'try { f(); } catch (err) { if (!isMissing(err)) throw err; }',
    ];
    assert.deepEqual(
      bare.filter((text) => bareCatches(text).length !== 1),
      [],
    );
    assert.deepEqual(
      named.filter((text) => bareCatches(text).length !== 0),
      [],
    );
  });

  it('catches no error it does not name: every catch looks at what it caught, or hands it to a helper that does', () => {
    const bare = everySource.flatMap((f) => bareCatches(code(f.text)).map((at) => `${f.path}: ${at}`));
    assert.deepEqual(bare, [], `bare catches:\n${bare.join('\n')}`);
  });
});

/** Every package's sources, for the rules that hold across the monorepo (paths from packages/). */
const PACKAGES = new URL('../../', import.meta.url).pathname;
const everySource = readdirSync(PACKAGES)
  .flatMap((name) => {
    const dir = join(PACKAGES, name, 'src');
    return statSync(dir, { throwIfNoEntry: false })?.isDirectory() ? sources(dir) : [];
  })
  .map((path) => ({ path: relative(PACKAGES, path), text: readFileSync(path, 'utf8') }));

/** Work a constructor must not start: a subscription, a job, a listener, a timer, a socket or process. */
const SIDE_EFFECT =
  /\.(subscribe|every|after|on|once|addListener|addEventListener|listen|start|connect|spawn|watch)\(|(?<![.\w])(setTimeout|setInterval|queueMicrotask)\(|\bvoid this\.\w+\(/;

/** The balanced span that opens at `text[from]` (a parenthesis or a brace), both ends included. */
function balanced(text: string, from: number): string {
  const open = text[from];
  const close = open === '(' ? ')' : '}';
  let depth = 0;
  for (let i = from; i < text.length; i += 1) {
    if (text[i] === open) depth += 1;
    else if (text[i] === close && --depth === 0) return text.slice(from, i + 1);
  }
  return text.slice(from);
}

/** The body of every constructor in `text` (of every class in it), found by matching parentheses and braces. */
function constructorBodies(text: string): string[] {
  return [...text.matchAll(/\bconstructor\s*\(/g)].map((m) => {
    const params = balanced(text, m.index + m[0].length - 1);
    return balanced(text, text.indexOf('{', m.index + m[0].length - 1 + params.length));
  });
}

/** The arguments of a call (the text between its parentheses), split at the commas outside any bracket. */
function topLevelArguments(args: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < args.length; i += 1) {
    if ('([{'.includes(args[i])) depth += 1;
    else if (')]}'.includes(args[i])) depth -= 1;
    else if (args[i] === ',' && depth === 0) {
      parts.push(args.slice(start, i));
      start = i + 1;
    }
  }
  return [...parts, args.slice(start)].filter((p) => p.trim() !== '');
}

/**
 * The catches in `text` that swallow what they caught without looking at it. Allowed forms, and only these:
 * `.catch(handler)` with a named handler (`ifMissing([])`, `ifApiError('NOT_FOUND', null)`, `logFailure(…)`:
 * the helper names what it expects), and `.catch((err) => …)` or `catch (err) { … }` whose body uses `err`
 * (checks its code or class, logs it, wraps it, rethrows it). A handler that takes no error — `.catch(() => …)`,
 * `catch { … }` — or takes one it never reads is bare.
 */
function bareCatches(text: string): string[] {
  const bare: string[] = [];
  const line = (index: number) => `line ${text.slice(0, index).split('\n').length}`;
  const handlers = [
    ...[...text.matchAll(/\.catch\(/g)].map((m) => ({
      at: m.index,
      handler: balanced(text, m.index + m[0].length - 1)
        .slice(1, -1)
        .trim(),
    })),
    // `.then(onFulfilled, onRejected)`: the second is a catch too.
    ...[...text.matchAll(/\.then\(/g)].flatMap((m) => {
      const rejected = topLevelArguments(balanced(text, m.index + m[0].length - 1).slice(1, -1))[1];
      return rejected ? [{ at: m.index, handler: rejected.trim() }] : [];
    }),
  ];
  for (const { at, handler } of handlers) {
    const arrow = /^(?:async\s*)?(?:\(\s*([A-Za-z_$][\w$]*)?\s*(?::[^)]*)?\)|([A-Za-z_$][\w$]*))\s*=>([\s\S]*)$/.exec(handler);
    if (!arrow) continue; // a named handler
    const name = arrow[1] ?? arrow[2];
    if (!name || !new RegExp(`\\b${name.replace('$', '\\$')}\\b`).test(arrow[3])) bare.push(`${line(at)}: ${handler.slice(0, 60)}`);
  }
  for (const m of text.matchAll(/\bcatch\s*(\(\s*([A-Za-z_$][\w$]*)[^)]*\))?\s*\{/g)) {
    const name = m[2];
    const body = balanced(text, m.index + m[0].length - 1);
    if (!name || !new RegExp(`\\b${name.replace('$', '\\$')}\\b`).test(body))
      bare.push(`${line(m.index)}: catch ${m[1] ?? ''}{${body.slice(1, 60).trim()}`);
  }
  return bare;
}
