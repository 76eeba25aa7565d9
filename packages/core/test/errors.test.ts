import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ApiError, ErrorCodes } from '../src/index.js';

describe('error catalogue', () => {
  it('is documented in docs/errors.md, code for code and status for status', () => {
    const doc = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| `([A-Z_]+)` \| ([0-9 /]+) \|/gm)].map(([, code, status]) => [code, status.trim()]);
    assert.deepEqual(rows.map(([code]) => code).sort(), Object.keys(ErrorCodes).sort());
    for (const [code, statuses] of rows) {
      assert.ok(
        statuses
          .split('/')
          .map((s) => Number(s.trim()))
          .includes(ErrorCodes[code as keyof typeof ErrorCodes]),
        `${code}: ${statuses}`,
      );
    }
  });

  it('carries the status of its code unless told otherwise', () => {
    assert.equal(new ApiError('PORT_IN_USE', 'x').status, 409);
    assert.equal(new ApiError('GAME_TYPE_NOT_FOUND', 'x', { status: 400 }).status, 400);
  });
});
