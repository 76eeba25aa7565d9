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
export {
  installFakeGamea,
  installFakeGameaTemp,
  installFakeGameb,
  installFakeGamebTemp,
  installFakeSteamcmd,
  FAKE_EXECUTABLES,
  FAKE_GAMEB_EXECUTABLES,
} from './install.js';
export { SourceRconServer, type SourceRconServerOptions, type SourceCommandHandler, type SourceRconContext } from './rcon-source/server.js';
export {
  encodePacket,
  encodeReply,
  PacketReader,
  PacketSizeError,
  SERVERDATA_AUTH,
  SERVERDATA_AUTH_RESPONSE,
  SERVERDATA_EXECCOMMAND,
  SERVERDATA_RESPONSE_VALUE,
  MAX_REPLY_BODY,
  MIRROR_TRAILER_BODY,
  type SourcePacket,
} from './rcon-source/codec.js';
export { bigReplyText } from './fake-gameb/test-commands.js';
export { launchFakeGameb, type FakeGameb, type FakeGamebLaunch } from './fake-gameb/launch.js';
export { RawSourceConnection } from './rcon-source/raw-client.js';
export { parseSteamId, steamIdText, steam3Text, type SteamId } from './fake-gameb/steamid.js';
export { freePort, freePorts, freeGamePorts } from './suite/ports.js';
export { waitFor, withDeadline, type WaitOptions } from './suite/waiting.js';
export { startProcess, killAll, type TestProcess } from './suite/processes.js';
export { startNatsServer } from './suite/nats.js';
export { connectRcon } from './suite/rcon-ready.js';
export { adapterConformance, type ConformanceOptions } from './conformance/adapter-conformance.js';
export type { RemoteAdminFake } from './conformance/remote-admin-conformance.js';
export { FakeSteamWorld, APP_UPDATE_STATES, type SteamFault, type SteamInvocation, type NewItem } from './fake-steamcmd/world.js';
export { FAKE_STEAM_IDS, FAKE_STEAM_ACCOUNTS } from './fake-steamcmd/default-world.js';
export type {
  SteamWorldState,
  SteamAccount,
  SteamApp,
  SteamBranch,
  WorkshopItem,
  ItemFaults,
  AppFault,
  WorldFaults,
} from './fake-steamcmd/state.js';
export {
  startFakeSteamWebApi,
  type FakeSteamWebApi,
  type FakeSteamWebApiOptions,
  type SteamWebApiFault,
  type SteamWebApiEndpoint,
} from './fake-steam-web-api/server.js';
