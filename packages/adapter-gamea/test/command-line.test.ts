import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readStartCommand, splitWords } from '../src/import/command-line.js';

describe('reading a start command as people keep it', () => {
  it('reads a Linux start script with quotes and continued lines', () => {
    const script = [
      './gameaserver_x64 -port=2402 \\',
      '  -config="server config/server.cfg" -cfg=basic.cfg \\',
      '  "-mod=@CBA_A3;@ace;@task force radio" -mod=@rhs \\',
      "  -serverMod='@advanced_towing' -profiles=profiles -name=server -bepath=battleye -autoInit -loadMissionToMemory",
    ].join('\n');
    const command = readStartCommand(script);
    assert.deepEqual(command.others, ['./gameaserver_x64']);
    assert.equal(command.parameters.get('port'), '2402');
    assert.equal(command.parameters.get('config'), 'server config/server.cfg');
    assert.equal(command.parameters.get('cfg'), 'basic.cfg');
    assert.equal(command.parameters.get('autoinit'), true);
    assert.deepEqual(command.mods, ['@CBA_A3', '@ace', '@task force radio', '@rhs']);
    assert.deepEqual(command.serverMods, ['@advanced_towing']);
    assert.equal(command.parameters.get('bepath'), 'battleye');
  });

  it('reads a Windows .bat line, parameters in any case', () => {
    const command = readStartCommand(
      'start "" /wait "C:\\Games\\Gamea Server\\gameaserver_x64.exe" -Port=2302 -CONFIG=C:\\srv\\server.cfg ^\r\n ' +
        '-serverMod=@a;@b; -profiles="C:\\srv\\profiles"\r\n',
    );
    assert.deepEqual(command.others, ['start', '', '/wait', 'C:\\Games\\Gamea Server\\gameaserver_x64.exe']);
    assert.equal(command.parameters.get('port'), '2302');
    assert.equal(command.parameters.get('config'), 'C:\\srv\\server.cfg');
    assert.deepEqual(command.serverMods, ['@a', '@b']);
    assert.equal(command.parameters.get('profiles'), 'C:\\srv\\profiles');
  });

  it('splits words as a shell does', () => {
    assert.deepEqual(splitWords(`a "b c" 'd "e"' f"g h"i ""`), ['a', 'b c', 'd "e"', 'fg hi', '']);
    assert.deepEqual(splitWords('   '), []);
  });
});
