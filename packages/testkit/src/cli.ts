#!/usr/bin/env node
import { installFakeGamea, installFakeGameb, installFakeSteamcmd } from './install.js';

const USAGE = [
  'usage: garrison-testkit install-fake-gamea DIR',
  '       garrison-testkit install-fake-gameb DIR',
  '       garrison-testkit install-fake-steamcmd DIR',
].join('\n');
const INSTALLERS: Record<string, (dir: string) => Promise<{ executables: string[] }>> = {
  'install-fake-gamea': installFakeGamea,
  'install-fake-gameb': installFakeGameb,
  'install-fake-steamcmd': installFakeSteamcmd,
};

const [command, dir, ...rest] = process.argv.slice(2);
const install = command !== undefined && Object.hasOwn(INSTALLERS, command) ? INSTALLERS[command] : undefined;
if (install && dir && rest.length === 0) {
  install(dir).then(
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
