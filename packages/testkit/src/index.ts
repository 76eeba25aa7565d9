/** @garrison/testkit — fakes of the game and helpers to run Garrison in tests: see README.md. */
export { FakeRconServer, type FakeRconServerOptions, type RconFaults, type CommandHandler, type CommandContext } from './rcon/fake-rcon-server.js';
export { playersText, bansText, adminsText, missionsText, messages, type FakePlayer, type FakeBan } from './rcon/formats.js';
export { parseCfg, type CfgClass, type CfgValue } from './fake-gamea/config-syntax.js';
export { installFakeGamea, FAKE_EXECUTABLES } from './install.js';
export { startGarrison, freshMysqlDatabase, installFakeGameaTemp, apiClient, type TestGarrison, type GarrisonOptions, type Api, type ApiResponse, type RequestOptions } from './harness.js';
export { freePort, freePorts, freeGamePorts } from './suite/ports.js';
export { waitFor, withDeadline, type WaitOptions } from './suite/waiting.js';
export { startProcess, killAll, type TestProcess } from './suite/processes.js';
export { connectRcon } from './suite/rcon-ready.js';
export { adapterConformance, type ConformanceOptions } from './conformance/adapter-conformance.js';
