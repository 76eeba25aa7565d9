import { it } from 'node:test';
import assert from 'node:assert/strict';
import {
  ADAPTER_API_VERSION,
  Field,
  configSection,
  defineAdapter,
  defineConfigGenerator,
  sectionDefaults,
  type ConfigGenerator,
} from '@garrison/core';

// `render` gets its config typed from the adapter's own sections: this file is type-checked with the
// tests, so a misspelt field below that compiled would fail `npm test` at its @ts-expect-error.
const sections = {
  server: configSection({
    hostname: Field.text({ default: 'My server', label: 'Host name' }),
    max_players: Field.integer({ default: 32, min: 1, max: 256, label: 'Players' }),
  }),
};

const generator = defineConfigGenerator({
  sections,
  generateCredentials: () => ({}),
  render: (config, ctx) => {
    const hostname: string = config.server.hostname;
    const players: number = config.server.max_players;
    // @ts-expect-error no such field: hostnam
    void config.server.hostnam;
    // @ts-expect-error no such section
    void config.basic;
    return [{ label: 'server.cfg', path: `${ctx.serverDir}/server.cfg`, content: `hostname = "${hostname}";\nmaxPlayers = ${players};\n` }];
  },
});

it("types render's config from the adapter's sections, and the adapter still takes the generator", () => {
  const adapter = defineAdapter({
    apiVersion: ADAPTER_API_VERSION,
    identity: { game_type: 'typed', display_name: 'Typed', version: '1.0.0', schema_version: '1' },
    capabilities: { config_generator: generator },
  });
  const ctx = { server: { id: 1, name: 's', exe_path: '/x/y', game_port: 1, rcon_port: 2 }, serverDir: '/d', exeDir: '/x' };
  // The service sees every generator through the untyped contract, as here.
  const asTheServiceSeesIt: ConfigGenerator = adapter.capabilities.config_generator;
  const [file] = asTheServiceSeesIt.render({ server: sectionDefaults(sections.server) }, ctx);
  assert.equal(file.content, 'hostname = "My server";\nmaxPlayers = 32;\n');
});
