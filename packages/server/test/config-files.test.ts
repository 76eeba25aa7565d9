import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '@garrison/core';
import { writeConfigFiles } from '../src/config/files.js';

describe('writing config files', () => {
  it('writes each file in place through a rename, mode 0600, creating folders', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'garrison-files-'));
    try {
      const target = join(dir, 'a', 'b', 'server.cfg');
      await writeFile(join(dir, 'old.cfg'), 'old');
      await writeConfigFiles([
        { label: 'server.cfg', path: target, content: 'hostname = "x";\n' },
        { label: 'old.cfg', path: join(dir, 'old.cfg'), content: 'new' },
      ]);
      assert.equal(await readFile(target, 'utf8'), 'hostname = "x";\n');
      assert.equal(await readFile(join(dir, 'old.cfg'), 'utf8'), 'new');
      assert.equal((await stat(target)).mode & 0o777, 0o600);
      assert.deepEqual((await readdir(join(dir, 'a', 'b'))).sort(), ['server.cfg'], 'no temporary file left behind');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reports a failed write as CONFIG_WRITE_ERROR', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'garrison-files-'));
    try {
      await writeFile(join(dir, 'not-a-dir'), '');
      await assert.rejects(
        writeConfigFiles([{ label: 'server.cfg', path: join(dir, 'not-a-dir', 'server.cfg'), content: '' }]),
        (err: unknown) =>
          err instanceof ApiError && err.code === 'CONFIG_WRITE_ERROR' && err.status === 500 && /server\.cfg/.test(err.message),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
