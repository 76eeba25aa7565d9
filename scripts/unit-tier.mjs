// The unit tier in one process: its files share the cost of loading the service's code (tsx, the
// modules), which was most of the tier's time as one process a file. Its tests build what they use
// anew (a container, a database, a clock) and put back what they change (mocked timers, the console's cache).
import { pathToFileURL } from 'node:url';

for (const file of JSON.parse(process.env.GARRISON_UNIT_FILES ?? '[]')) await import(pathToFileURL(file).href);
