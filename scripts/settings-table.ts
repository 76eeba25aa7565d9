// Writes the settings table of docs/configuration.md from the settings each feature declares (its
// folder's settings.ts): `npm run settings-table`. A test fails when the document and they differ.
import { readFile, writeFile } from 'node:fs/promises';
import { withSettingsTable } from '../packages/server/src/cli/settings-doc.js';

const doc = new URL('../docs/configuration.md', import.meta.url);
await writeFile(doc, withSettingsTable(await readFile(doc, 'utf8')));
console.log(`wrote the settings table of ${doc.pathname}`);
