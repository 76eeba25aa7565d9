import { stringify } from '@node-steam/vdf';
import { EXIT, type Outcome, type SteamConsole } from './context.js';

/** `Tue Nov 14 15:36:30 2023`: C's asctime, in UTC, as steamcmd prints the last change. */
function asctime(unixSeconds: number): string {
  // toUTCString gives `Tue, 14 Nov 2023 15:36:30 GMT`; asctime puts the month first and pads the day with a space.
  const [day, date, month, year, time] = new Date(unixSeconds * 1000).toUTCString().replace(',', '').split(' ');
  return `${day} ${month} ${String(Number(date)).padStart(2, ' ')} ${time} ${year}`;
}

/**
 * `+app_info_print <id>`: the app's info as the real one prints it, a header line and the VDF, with the
 * branches (`buildid`, `timeupdated`, `pwdrequired` for a password-protected one) under `depots`.
 */
export function appInfoPrint(steam: SteamConsole, args: string[]): Outcome {
  const [id] = args;
  if (!id || args.length > 1 || !/^\d+$/.test(id)) {
    steam.out('Usage: app_info_print <appid>');
    return EXIT.error;
  }
  const world = steam.world();
  const app = Object.hasOwn(world.apps, id) ? world.apps[id] : undefined;
  if (!steam.login || !app) {
    steam.out(`No app info for AppID ${id} found, requesting...`);
    return EXIT.ok;
  }
  const branches = Object.fromEntries(
    Object.entries(app.branches).map(([name, b]) => [
      name,
      {
        buildid: b.buildid,
        ...(b.description !== undefined && { description: b.description }),
        ...(b.password !== undefined && { pwdrequired: '1' }),
        timeupdated: String(b.timeupdated),
      },
    ]),
  );
  const lastChange = Math.max(0, ...Object.values(app.branches).map((b) => b.timeupdated));
  steam.out(`AppID : ${id}, change number : ${world.change_number}/${world.change_number}, last change : ${asctime(lastChange)}`);
  const info = {
    [id]: {
      common: { name: app.name, type: 'Tool', gameid: id },
      config: { installdir: app.installdir },
      depots: { branches },
    },
  };
  steam.out(stringify(info).trimEnd());
  return EXIT.ok;
}
