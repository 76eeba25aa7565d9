import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { freeGamePorts, waitFor } from '@garrison/testkit';
import { ADMIN_PASSWORD } from './helpers.js';
import { gameService, wsClient } from './games.js';

// The README's example session, run as written (bash, curl, jq) against a real service, so that it
// cannot rot. Only what a reader's machine would differ in is replaced: the port, the admin password,
// the game's executable and free game ports. In the shown answers, a string with `…` stands for any
// string, and pids and times for any of their kind; everything else must be what the service says.

const README = new URL('../../../README.md', import.meta.url);
const run = promisify(execFile);

interface Step {
  command: string;
  expected: string;
}

/** The `$ command` lines (with their `\` continuations) of the example session, and what each shows. */
function sessionSteps(readme: string): Step[] {
  const section = readme.slice(
    readme.indexOf('## An example session'),
    readme.indexOf('\n## ', readme.indexOf('## An example session') + 1),
  );
  const steps: Step[] = [];
  for (const block of section.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const lines = block[1].split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i].startsWith('$ ')) continue;
      let command = lines[i].slice(2);
      while (command.endsWith('\\')) command = `${command.slice(0, -1)} ${lines[++i].trim()}`;
      const expected: string[] = [];
      while (i + 1 < lines.length && !lines[i + 1].startsWith('$ ')) expected.push(lines[++i]);
      steps.push({ command, expected: expected.join('\n').trim() });
    }
  }
  return steps;
}

const ANY_OF_ITS_KIND = new Set(['pid', 'timestamp', 'started_at', 'time']);

/** `actual` is what `shown` shows: the same keys, the same values but for the placeholders above. */
function assertShows(actual: unknown, shown: unknown, path = '$'): void {
  if (typeof shown === 'string' && shown.includes('…')) return assert.equal(typeof actual, 'string', path);
  if (ANY_OF_ITS_KIND.has(path.split('.').pop()!) && shown !== null) return assert.equal(typeof actual, typeof shown, path);
  if (shown && typeof shown === 'object' && !Array.isArray(shown)) {
    assert.ok(actual && typeof actual === 'object', `${path} is an object`);
    assert.deepEqual(Object.keys(actual).sort(), Object.keys(shown).sort(), `${path}: the keys`);
    for (const [key, value] of Object.entries(shown)) assertShows((actual as Record<string, unknown>)[key], value, `${path}.${key}`);
    return;
  }
  assert.deepEqual(actual, shown, path);
}

describe('the README example session', () => {
  const suite = gameService({ readyTimeoutMs: 30_000 });

  it('runs as written against a real service and shows what the service answers', async () => {
    const readme = await readFile(README, 'utf8');
    const steps = sessionSteps(readme);
    assert.ok(steps.length >= 5, 'the session has its steps');
    const ports = await freeGamePorts();
    const local = (text: string) =>
      text
        .replaceAll('localhost:8080', new URL(suite.h.url).host)
        .replaceAll('127.0.0.1:8080', new URL(suite.h.url).host)
        .replaceAll('"password":"…"', `"password":"${ADMIN_PASSWORD}"`)
        .replaceAll('/srv/gamea/gameaserver_x64.exe', suite.fake.exePath)
        .replaceAll('2302', String(ports.game_port))
        .replaceAll('2305', String(ports.rcon_port));

    let token = '';
    let socket: Awaited<ReturnType<typeof wsClient>> | null = null;
    try {
      for (const step of steps) {
        const command = local(step.command);
        const expected = local(step.expected);
        if (command.startsWith('websocat ')) {
          // Listened to since the token was known, so that no early message is missed; compared here.
          const shown = expected.split('\n').map((l) => JSON.parse(l) as { type: string; data: { status?: string } });
          for (const message of shown) {
            const received = await waitFor(
              () => socket!.messages.find((m) => m.type === message.type && m.data?.status === message.data.status),
              {
                timeoutMs: 30_000,
                what: `a ${message.type} message`,
              },
            );
            assertShows(received, message, message.type);
          }
          continue;
        }
        const assigned = /^(\w+)=\$\(/.exec(command)?.[1];
        const script = assigned ? `${command}; printf %s "$${assigned}"` : command;
        const { stdout } = await run('bash', ['-o', 'pipefail', '-c', script], { env: { ...process.env, TOKEN: token }, timeout: 30_000 });
        if (assigned === 'TOKEN') {
          token = stdout.trim();
          assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/, 'the login gives a token');
          const wsStep = steps.find((s) => s.command.startsWith('websocat '));
          const wsUrl = wsStep && /"ws:\/\/[^"/]+(\/[^"]*)"/.exec(local(wsStep.command))?.[1]!.replace('$TOKEN', token);
          if (wsUrl) socket = await wsClient(suite.h.url, wsUrl);
          continue;
        }
        let shown: unknown;
        try {
          shown = JSON.parse(expected);
        } catch {
          assert.equal(stdout.trimEnd(), expected, command);
          continue;
        }
        assertShows(JSON.parse(stdout), shown);
      }
    } finally {
      socket?.close();
    }
  });
});
