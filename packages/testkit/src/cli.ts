#!/usr/bin/env node
import { installFakeGamea } from './install.js';

const USAGE = 'usage: garrison-testkit install-fake-gamea DIR';

const [command, dir, ...rest] = process.argv.slice(2);
if (command === 'install-fake-gamea' && dir && rest.length === 0) {
  installFakeGamea(dir).then(
    ({ executables }) => console.log(executables.join('\n')),
    (err: Error) => {
      console.error(`garrison-testkit: ${err.message}`);
      process.exit(1);
    },
  );
} else {
  console.error(USAGE);
  process.exit(2);
}
