import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { kindOf } from '../../src/identity-kinds.js';

/** A kind as `GET /games/{game}` serves it in `identity_kinds`. */
const kind = (name: string, pattern?: string, address = false) => ({
  kind: name,
  label: name,
  example: '',
  address,
  ...(pattern === undefined ? {} : { pattern }),
});

describe("the kind of a value typed into the ban form: by the game's patterns", () => {
  // A game whose address kind is not the only one with colons, and whose default kind has no pattern.
  const kinds = [kind('NAME'), kind('STEAMID', '^STEAM_[0-5]:[01]:\\d+$'), kind('IP', '^\\d{1,3}(?:\\.\\d{1,3}){3}$', true)];

  it('picks the first kind whose pattern the value fits', () => {
    assert.equal(kindOf(kinds, ' STEAM_0:1:1234 ')?.kind, 'STEAMID');
    assert.equal(kindOf(kinds, '203.0.113.7')?.kind, 'IP');
  });

  it("takes the game's first kind when no pattern fits: an address the game's address kind does not take is no guess", () => {
    assert.equal(kindOf(kinds, '2001:db8::1')?.kind, 'NAME', 'this game bans IPv4 addresses only');
    assert.equal(kindOf(kinds, 'Alice')?.kind, 'NAME');
    assert.equal(kindOf([], 'x'), undefined);
  });
});
