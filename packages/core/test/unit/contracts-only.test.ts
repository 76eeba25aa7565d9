import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
/** Input and output belong to the packages that do them (the service, an adapter, `@garrison/battleye`); core holds contracts. */
const FORBIDDEN = /from ['"](?:node:)?(?:dgram|net|fs|fs\/promises|child_process|http|https|tls)['"]/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

describe('core holds contracts only', () => {
  it('imports no network or file module', () => {
    const files = sources(SRC);
    assert.ok(files.length > 20, `found only ${files.length} sources under ${SRC}`);
    const offenders = files.filter((file) => FORBIDDEN.test(readFileSync(file, 'utf8')));
    assert.deepEqual(offenders, []);
  });
});
