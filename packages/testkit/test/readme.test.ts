import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

test('the README shows the example that runs as test/example.test.ts', async () => {
  const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  const example = await readFile(new URL('./example.test.ts', import.meta.url), 'utf8');
  assert.equal(block, example);
});
