import type { SteamWorldState, WorkshopItem } from '../fake-steamcmd/state.js';

/**
 * What the two ISteamRemoteStorage methods answer, from the world as it is now: Steam's shapes, with its
 * quirks (ids and `file_size` as strings, `result: 9` for an id it does not know, in the place it was asked).
 */

/** Steam's EResult for an id it does not know (File Not Found). */
const FILE_NOT_FOUND = 9;
/** A Steam account id of the fake's creator: SteamID64 as a string, as Steam gives it. */
const CREATOR = '76561198000000001';

export class BadRequest extends Error {}

/**
 * `<name>count` and `publishedfileids[0..n-1]` from a form: the ids asked, in order. Steam refuses a missing
 * count or id with 400 and the parameter's name; so does the fake.
 */
export function askedIds(form: URLSearchParams, countName: string): string[] {
  const raw = form.get(countName);
  if (raw === null) throw new BadRequest(`Required parameter '${countName}' is missing`);
  const count = Number(raw);
  if (!/^\d+$/.test(raw) || count < 1 || count > 1000) throw new BadRequest(`Parameter '${countName}' is invalid`);
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = form.get(`publishedfileids[${i}]`);
    if (id === null) throw new BadRequest(`Required parameter 'publishedfileids[${i}]' is missing`);
    if (!/^\d{1,20}$/.test(id)) throw new BadRequest(`Parameter 'publishedfileids[${i}]' is invalid`);
    ids.push(id);
  }
  return ids;
}

function details(id: string, item: WorkshopItem): Record<string, unknown> {
  const app = Number(item.app);
  return {
    publishedfileid: id,
    result: 1,
    creator: CREATOR,
    creator_app_id: app,
    consumer_app_id: app,
    filename: '',
    file_size: String(item.file_size),
    file_url: '',
    hcontent_file: String(item.time_updated * 1000 + (item.file_size % 1000)),
    preview_url: `https://steamuserimages-a.akamaihd.net/ugc/${id}/preview.jpg`,
    hcontent_preview: '0',
    title: item.title,
    description: item.description ?? '',
    time_created: item.time_created,
    time_updated: item.time_updated,
    visibility: item.visibility ?? 0,
    banned: 0,
    ban_reason: '',
    subscriptions: 1000,
    favorited: 10,
    lifetime_subscriptions: 1500,
    lifetime_favorited: 12,
    views: 5000,
    tags: [{ tag: 'Mod' }],
  };
}

export function publishedFileDetails(world: SteamWorldState, ids: string[]): unknown {
  const publishedfiledetails = ids.map((id) =>
    Object.hasOwn(world.items, id) ? details(id, world.items[id]) : { publishedfileid: id, result: FILE_NOT_FOUND },
  );
  return { response: { result: 1, resultcount: publishedfiledetails.length, publishedfiledetails } };
}

export function collectionDetails(world: SteamWorldState, ids: string[]): unknown {
  const collectiondetails = ids.map((id) =>
    Object.hasOwn(world.collections, id)
      ? {
          publishedfileid: id,
          result: 1,
          children: world.collections[id].map((child, i) => ({ publishedfileid: child, sortorder: i + 1, filetype: 0 })),
        }
      : { publishedfileid: id, result: FILE_NOT_FOUND },
  );
  return { response: { result: 1, resultcount: collectiondetails.length, collectiondetails } };
}
