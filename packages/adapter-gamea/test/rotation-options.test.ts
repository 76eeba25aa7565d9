import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TypeCompiler } from '@garrison/core';
import { gamea } from '../src/index.js';
import { sections } from '../src/config/sections.js';
import { remoteAdmin } from '../src/remote-admin.js';

describe('gamea: rotation options, log files and playing a mission (adapter contract v2)', () => {
  const manager = gamea.capabilities.mission_manager;
  assert.ok(manager);
  const { rotationOptions } = manager;

  it('reads a difficulty in any case and stores it capitalised; none is the server default ""', () => {
    assert.deepEqual(rotationOptions.normalize({ difficulty: 'veteran' }), { difficulty: 'Veteran' });
    assert.deepEqual(rotationOptions.normalize({ difficulty: ' CUSTOM ' }), { difficulty: 'Custom' });
    assert.deepEqual(rotationOptions.normalize({ difficulty: '' }), { difficulty: '' });
    assert.deepEqual(rotationOptions.normalize({}), { difficulty: '' });
  });

  it('refuses what is no difficulty with a message that names the option first, and the values', () => {
    assert.equal(
      rotationOptions.normalize({ difficulty: 'Hard' }),
      'difficulty: "Hard" is none of "", "Recruit", "Regular", "Veteran", "Custom" (in any case)',
    );
    assert.match(String(rotationOptions.normalize({ difficulty: 3 })), /^difficulty: 3 is none of/);
  });

  it('has one list: the schema of the options and the config rotation take the same values', () => {
    const check = TypeCompiler.Compile(rotationOptions.schema);
    const entry = TypeCompiler.Compile(sections.server.properties.missions);
    for (const difficulty of ['', 'Recruit', 'Regular', 'Veteran', 'Custom']) {
      assert.ok(check.Check({ difficulty }), difficulty);
      assert.ok(entry.Check([{ name: 'co10_Escape.Altis', difficulty }]), difficulty);
    }
    for (const difficulty of ['veteran', 'Hard']) {
      assert.ok(!check.Check({ difficulty }), difficulty);
      assert.ok(!entry.Check([{ name: 'co10_Escape.Altis', difficulty }]), difficulty);
    }
    assert.ok(!check.Check({ size: 'big' }), 'closed: no other option');
  });

  it('calls the .rpt files of its profile folder its logs, in any case', () => {
    const parser = gamea.capabilities.log_parser;
    assert.ok(parser);
    const { isLogFile } = parser;
    for (const name of ['gameaserver_x64_2026-11-27_13-00-00.rpt', 'SERVER.RPT']) assert.equal(isLogFile(name), true, name);
    for (const name of ['server.log', 'x.rpt.bak', 'rpt', 'x.mdmp']) assert.equal(isLogFile(name), false, name);
  });

  it("plays a mission with the game's own command, the difficulty only when there is one", async () => {
    const sent: string[] = [];
    const run = async (text: string) => {
      sent.push(text);
      return '';
    };
    await remoteAdmin.playMission!(run, 'co10_Escape.Altis', { difficulty: 'Veteran' });
    await remoteAdmin.playMission!(run, 'co10_Escape.Altis', { difficulty: '' });
    assert.deepEqual(sent, ['#mission co10_Escape.Altis Veteran', '#mission co10_Escape.Altis']);
  });
});
