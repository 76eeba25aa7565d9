import { ADAPTER_API_VERSION, defineAdapter } from '@garrison/core';

/** The gameb adapter: being built (issue 33); it declares no capability yet, so the loader lists it and nothing uses it. */
export default defineAdapter({
  apiVersion: ADAPTER_API_VERSION,
  identity: { game_type: 'gameb', display_name: 'Game B', version: '1.0.0', schema_version: '1' },
  capabilities: {},
});
