/**
 * @garrison/testkit — fakes of the game and of BattlEye RCon, the adapter conformance suite and test
 * helpers, on @garrison/core alone: an adapter author needs nothing else. Running Garrison itself in a
 * test (startGarrison) is `@garrison/testkit/harness`, which needs @garrison/server.
 */
export {
  FakeRconServer,
  type FakeRconServerOptions,
  type RconFaults,
  type CommandHandler,
  type CommandContext,
} from './rcon/fake-rcon-server.js';
export { playersText, bansText, adminsText, missionsText, messages, type FakePlayer, type FakeBan } from './rcon/formats.js';
export { parseCfg, type CfgClass, type CfgValue } from './fake-gamea/config-syntax.js';
export { installFakeGamea, installFakeGameaTemp, FAKE_EXECUTABLES } from './install.js';
export { freePort, freePorts, freeGamePorts } from './suite/ports.js';
export { waitFor, withDeadline, type WaitOptions } from './suite/waiting.js';
export { startProcess, killAll, type TestProcess } from './suite/processes.js';
export { startNatsServer } from './suite/nats.js';
export { connectRcon } from './suite/rcon-ready.js';
export { adapterConformance, type ConformanceOptions } from './conformance/adapter-conformance.js';
export type { RemoteAdminFake } from './conformance/remote-admin-conformance.js';
