import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { redactPasswords } from '../src/index.js';

describe("the audit trail's default redaction of a command", () => {
  it('keeps the words, and masks what follows a word about a password', () => {
    assert.equal(redactPasswords('say hello all'), 'say hello all');
    assert.equal(redactPasswords('setpassword  s3cret and more'), 'setpassword  *** *** ***');
    assert.equal(redactPasswords('login admin Password=x rest'), 'login admin Password=*** ***');
    assert.equal(redactPasswords(''), '');
  });
});
