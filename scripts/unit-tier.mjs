// The unit tier in one process: its files share the cost of loading the service's code (tsx, the
// modules), which was most of the tier's time as one process a file. Its tests build what they use
// anew (a container, a database, a clock) and put back what they change (mocked timers, the console's cache).
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

const files = JSON.parse(process.env.GARRISON_UNIT_FILES ?? '[]');
// Held open by a first test until every file is loaded: a file whose tests all finish while the next one is
// still loading would otherwise end the run there, and the files after it would never run.
const loading = (async () => {
  for (const file of files) await import(pathToFileURL(file).href);
})();
test(`the unit tier loads its ${files.length} files`, () => loading);
