import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@garrison/core';
import { entryToSend, missionParts, optionText, partsOf, rotationOptionsOf } from '../../src/game-missions.js';
import { optionsSuffix } from '../../src/format.js';

/** A schema as `GET /games/{game}` serves it: TypeBox's, through JSON. */
const served = (schema: object) => JSON.parse(JSON.stringify(schema)) as object;

describe("a rotation entry's options, from the game's JSON Schema", () => {
  it('offers the values of a union of constants, the empty one as the default', () => {
    const level = Type.Union(['', 'Easy', 'Hard'].map((v) => Type.Literal(v)));
    const [option, ...rest] = rotationOptionsOf(served(Type.Object({ level: Type.Optional(level) })));
    assert.deepEqual(rest, []);
    assert.deepEqual(option, { key: 'level', label: 'Level', values: ['', 'Easy', 'Hard'], initial: '', emptyIsUnset: false });
    assert.equal(optionText(''), 'Default');
    assert.equal(optionText('Hard'), 'Hard');
  });

  it('offers an enum, its title as the label; an optional one without an empty value can be left unset, and is then not sent', () => {
    const options = rotationOptionsOf(
      served(
        Type.Object({
          speed: Type.Optional(Type.String({ enum: ['slow', 'fast'], title: 'Game speed' })),
          team: Type.String({ enum: ['red', 'blue'], default: 'red' }),
          note: Type.Optional(Type.String()),
        }),
      ),
    );
    assert.deepEqual(options, [
      { key: 'speed', label: 'Game speed', values: ['', 'slow', 'fast'], initial: '', emptyIsUnset: true },
      { key: 'team', label: 'Team', values: ['red', 'blue'], initial: 'red', emptyIsUnset: false },
      { key: 'note', label: 'Note', values: null, initial: undefined, emptyIsUnset: false },
    ]);
    assert.deepEqual(entryToSend({ name: 'm', speed: '', team: 'blue', note: '' }, options), { name: 'm', team: 'blue', note: '' });
    assert.deepEqual(entryToSend({ name: 'm', speed: 'fast' }, options), { name: 'm', speed: 'fast' });
  });

  it('has no options for a game whose rotation is names only, or none declared', () => {
    assert.deepEqual(rotationOptionsOf(served(Type.Object({}))), []);
    assert.deepEqual(rotationOptionsOf(undefined), []);
  });

  it("shows an entry's set options after its name, and nothing when none is set", () => {
    assert.equal(optionsSuffix({ name: 'm', level: 'Hard' }), ' (Hard)');
    assert.equal(optionsSuffix({ name: 'm', level: '' }), '');
    assert.equal(optionsSuffix({ name: 'm', level: 'Hard', speed: 'fast' }), ' (Hard, fast)');
  });
});

describe("a mission file's parts", () => {
  it('are the fields the API lists beside its name, and those of a `parts` object: a column each', () => {
    const listed = { name: 'co_Hold.Isle', filename: 'co_Hold.Isle.x', size_bytes: 3, region: 'Isle', warning: 'w' };
    assert.deepEqual(partsOf(listed), { region: 'Isle' });
    assert.deepEqual(partsOf({ name: 'm', filename: 'm.y', size_bytes: 1, parts: { map_group: 'A' } }), { map_group: 'A' });
    assert.deepEqual(missionParts([listed, { name: 'de_x', filename: 'de_x.y', size_bytes: 1 }]), ['region']);
    assert.deepEqual(missionParts([{ name: 'de_x', filename: 'de_x.y', size_bytes: 1, parts: {} }]), [], 'a map is its name only');
  });
});
