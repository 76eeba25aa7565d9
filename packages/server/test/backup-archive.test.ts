import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar';
import { choose, writeArchive } from '../src/backups/archive.js';

// The archive writer keeps each entry's real modification time: a folder's too (tar's `portable` mode
// leaves it out, which listed and unpacked folders as of 1970).
describe('a backup archive', () => {
  it('dates its folders and files as they are on disk', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'garrison-archive-'));
    try {
      const root = join(dir, 'profile');
      await mkdir(join(root, 'Users', 'server'), { recursive: true });
      await writeFile(join(root, 'Users', 'server', 'server.vars'), 'persistence');
      await writeFile(join(dir, 'manifest.json'), '{}');
      const when = new Date('2026-03-14T09:26:53Z');
      for (const path of [join(root, 'Users', 'server', 'server.vars'), join(root, 'Users', 'server'), join(root, 'Users')])
        await utimes(path, when, when);

      const target = join(dir, 'out', 'backup.tar.gz');
      const parts = await choose([{ name: 'profile', root }]);
      await writeArchive(parts, join(dir, 'manifest.json'), target, () => {}, new AbortController().signal);

      const entries = new Map<string, { type: string; mtime: Date | undefined }>();
      await tar.t({ file: target, onReadEntry: (e) => void entries.set(e.path, { type: e.type, mtime: e.mtime }) });
      for (const path of ['profile/Users/', 'profile/Users/server/']) {
        const entry = entries.get(path);
        assert.equal(entry?.type, 'Directory', `${path} in ${[...entries.keys()].join(', ')}`);
        assert.equal(entry?.mtime?.toISOString(), when.toISOString(), `${path} dated as on disk, not 1970`);
      }
      assert.equal(entries.get('profile/Users/server/server.vars')?.mtime?.toISOString(), when.toISOString());
      for (const [path, entry] of entries) assert.ok(entry.mtime && entry.mtime.getUTCFullYear() > 1970, `${path} has a real time`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
