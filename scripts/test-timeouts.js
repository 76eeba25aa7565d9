// Preloaded into every test file's process by run-tests.js: gives each test and each hook a timeout
// (TEST_TIMEOUT_MS, default 60 s) unless it sets its own, so that a stuck test fails with its name.
//
// Node 20's `--test-timeout` bounds a whole file, not each test in it (the file's tests inherit no
// timeout), and a file killed at its deadline reports no test names. Tests created inside a suite
// inherit nothing either, so the functions themselves are wrapped, before any test file imports them.
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);
const nodeTest = require('node:test');
const timeout = Number(process.env.TEST_TIMEOUT_MS) || 60_000;

/** (fn) | (name, fn) | (options, fn) | (name, options, fn), with `timeout` added to the options. */
function withTimeout(create) {
  const wrapped = function (...args) {
    const at = args.findIndex((a) => a !== null && typeof a === 'object');
    if (at >= 0) args[at] = { timeout, ...args[at] };
    else args.splice(typeof args[0] === 'string' ? 1 : 0, 0, { timeout });
    return create.apply(this, args);
  };
  return Object.assign(wrapped, create);
}

/** (fn, options?), with `timeout` added to the options. */
function hookWithTimeout(create) {
  return function (fn, options) {
    return create.call(this, fn, { timeout, ...options });
  };
}

for (const name of ['test', 'it']) nodeTest[name] = withTimeout(nodeTest[name]);
for (const name of ['before', 'after', 'beforeEach', 'afterEach']) nodeTest[name] = hookWithTimeout(nodeTest[name]);
// `import test from 'node:test'` gets the module itself, which is `test`.
syncBuiltinESMExports();
