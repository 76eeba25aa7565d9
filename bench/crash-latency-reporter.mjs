// The baseline side of crash-latency: spawns a child on request and reports its exit at once.
import { spawn } from 'node:child_process';

process.on('message', () => {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore', detached: true });
  child.once('spawn', () => process.send({ pid: child.pid }));
  child.once('exit', () => process.send({ exited: true }));
});
