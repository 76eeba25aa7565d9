#!/usr/bin/env node
// Writes the table of API-key scopes in docs/security.md from core's table (after `npm run build`):
// every endpoint under its scope. A test fails when the document and the table differ.
import { readFile, writeFile } from 'node:fs/promises';
import { endpoints, ENDPOINT_SCOPES, KEY_SCOPES, SCOPE_MEANINGS } from '@garrison/core';

const doc = new URL('../docs/security.md', import.meta.url);
const rows = ['| scope | what it allows | endpoints |', '|---|---|---|'];
for (const scope of [...KEY_SCOPES, 'account', 'admin']) {
  const list = Object.keys(endpoints)
    .filter((id) => ENDPOINT_SCOPES[id] === scope)
    .map((id) => `\`${endpoints[id].method} ${endpoints[id].path}\``);
  rows.push(`| \`${scope}\` | ${SCOPE_MEANINGS[scope]} | ${scope === 'metrics' ? '`GET /metrics` (outside `/api`)' : list.join(', ')} |`);
}
const text = await readFile(doc, 'utf8');
const start = text.indexOf('| scope | what it allows | endpoints |');
const end = text.indexOf('\n\n', start);
await writeFile(doc, `${text.slice(0, start)}${rows.join('\n')}${end === -1 ? '\n' : text.slice(end)}`);
console.log(`wrote the scopes of ${Object.keys(endpoints).length} endpoints into docs/security.md`);
