import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FAKE_STEAM_IDS as IDS, FakeSteamWorld, startFakeSteamWebApi, waitFor, type FakeSteamWebApi } from '../src/index.js';

const DETAILS = '/ISteamRemoteStorage/GetPublishedFileDetails/v1/';
const COLLECTION = '/ISteamRemoteStorage/GetCollectionDetails/v1/';

const opened: { api: FakeSteamWebApi; world: FakeSteamWorld }[] = [];
after(async () => {
  for (const { api, world } of opened) {
    await api.close();
    world.remove();
  }
});

async function start(): Promise<{ api: FakeSteamWebApi; world: FakeSteamWorld }> {
  const world = FakeSteamWorld.create();
  const api = await startFakeSteamWebApi({ world });
  opened.push({ api, world });
  return { api, world };
}

/** A form-encoded POST, as a client of the real API sends it. */
function post(api: FakeSteamWebApi, path: string, fields: Record<string, string>): Promise<Response> {
  return fetch(`${api.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    signal: AbortSignal.timeout(10_000),
  });
}

const itemsForm = (ids: string[]) => ({
  itemcount: String(ids.length),
  ...Object.fromEntries(ids.map((id, i) => [`publishedfileids[${i}]`, id])),
});

describe('the fake Steam Web API', () => {
  it('gives published file details as Steam does, result 9 for an unknown id, and follows the world', async () => {
    const { api, world } = await start();
    const res = await post(api, DETAILS, itemsForm([IDS.coreItem, '2999999', IDS.mapItem]));
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^application\/json/);
    const { response } = (await res.json()) as { response: any };
    assert.equal(response.result, 1);
    assert.equal(response.resultcount, 3);
    const [core, unknown, map] = response.publishedfiledetails;
    const item = world.read().items[IDS.coreItem];
    assert.deepEqual(unknown, { publishedfileid: '2999999', result: 9 });
    assert.equal(core.publishedfileid, IDS.coreItem);
    assert.equal(core.result, 1);
    assert.equal(core.consumer_app_id, Number(IDS.gameApp));
    assert.equal(core.creator_app_id, Number(IDS.gameApp));
    assert.equal(typeof core.creator, 'string');
    assert.equal(core.file_size, String(item.file_size));
    assert.equal(core.title, 'Core Library (Workshop)');
    assert.equal(core.time_updated, item.time_updated);
    for (const key of ['filename', 'description', 'time_created', 'visibility', 'banned', 'tags']) assert.ok(key in core, key);
    assert.equal(map.title, 'Map Pack: Islands & Co.');

    const updated = world.updateItem(IDS.coreItem);
    const again = (await (await post(api, DETAILS, itemsForm([IDS.coreItem]))).json()) as { response: any };
    assert.equal(again.response.publishedfiledetails[0].time_updated, updated);
    assert.deepEqual(api.requests[1], { endpoint: 'GetPublishedFileDetails', ids: [IDS.coreItem] });
  });

  it('gives collection details: the children in order, result 9 for an unknown collection', async () => {
    const { api, world } = await start();
    const res = await post(api, COLLECTION, { collectioncount: '1', 'publishedfileids[0]': IDS.collection });
    assert.equal(res.status, 200);
    const { response } = (await res.json()) as { response: any };
    assert.equal(response.result, 1);
    assert.equal(response.resultcount, 1);
    assert.deepEqual(response.collectiondetails[0], {
      publishedfileid: IDS.collection,
      result: 1,
      children: [IDS.coreItem, IDS.vehiclesItem, IDS.mapItem].map((id, i) => ({ publishedfileid: id, sortorder: i + 1, filetype: 0 })),
    });
    world.setCollection('3000002', [IDS.soundItem]);
    const two = (await (
      await post(api, COLLECTION, { collectioncount: '2', 'publishedfileids[0]': '3000002', 'publishedfileids[1]': '3999999' })
    ).json()) as {
      response: any;
    };
    assert.equal(two.response.collectiondetails[0].children[0].publishedfileid, IDS.soundItem);
    assert.deepEqual(two.response.collectiondetails[1], { publishedfileid: '3999999', result: 9 });
    assert.equal(api.calls.GetCollectionDetails, 2);
    assert.equal(api.calls.GetPublishedFileDetails, 0);
  });

  it('refuses bad input with 400, an unknown path with 404, another method with 405, a body over 64 KB with 413', async () => {
    const { api } = await start();
    const bad = [
      [DETAILS, {}, /Required parameter 'itemcount' is missing/],
      [DETAILS, { itemcount: '2', 'publishedfileids[0]': '1' }, /'publishedfileids\[1\]' is missing/],
      [DETAILS, { itemcount: 'two' }, /'itemcount' is invalid/],
      [DETAILS, { itemcount: '1', 'publishedfileids[0]': '12x' }, /'publishedfileids\[0\]' is invalid/],
      [COLLECTION, { itemcount: '1', 'publishedfileids[0]': '1' }, /'collectioncount' is missing/],
    ] as const;
    for (const [path, form, message] of bad) {
      const res = await post(api, path, form);
      assert.equal(res.status, 400, JSON.stringify(form));
      assert.match(await res.text(), message);
    }
    assert.equal((await post(api, '/ISteamRemoteStorage/GetUGCFileDetails/v1/', itemsForm(['1']))).status, 404);
    const get = await fetch(`${api.url}${DETAILS}?itemcount=1&publishedfileids[0]=1`, { signal: AbortSignal.timeout(10_000) });
    assert.equal(get.status, 405);
    await get.text();
    const big = await post(api, DETAILS, { ...itemsForm([IDS.coreItem]), padding: 'x'.repeat(70 * 1024) });
    assert.equal(big.status, 413);
    await big.text();
    assert.equal(api.calls.GetPublishedFileDetails, 6);
    assert.deepEqual(api.requests, []);
  });

  it('answers a status or waits for the next calls a fault names, then answers normally', async () => {
    const { api } = await start();
    api.fault({ status: 503, calls: 2 });
    for (let i = 0; i < 2; i += 1) {
      const res = await post(api, DETAILS, itemsForm([IDS.coreItem]));
      assert.equal(res.status, 503);
      await res.text();
    }
    assert.equal((await post(api, DETAILS, itemsForm([IDS.coreItem]))).status, 200);
    api.fault({ delayMs: 400 });
    const t0 = Date.now();
    assert.equal((await post(api, COLLECTION, { collectioncount: '1', 'publishedfileids[0]': IDS.collection })).status, 200);
    assert.ok(Date.now() - t0 >= 390, `answered after ${Date.now() - t0} ms`);
    assert.deepEqual(api.calls, { GetPublishedFileDetails: 3, GetCollectionDetails: 1 });
  });

  it('closes at once, even with an answer held back by a delay', async () => {
    const world = FakeSteamWorld.create();
    const api = await startFakeSteamWebApi({ world });
    try {
      api.fault({ delayMs: 60_000 });
      const pending = post(api, DETAILS, itemsForm([IDS.coreItem])).then(
        (res) => res.status,
        (err: Error) => err.name,
      );
      // Wait until the call has arrived (it counts before the delay).
      await waitFor(() => api.calls.GetPublishedFileDetails === 1, { what: 'the call to arrive' });
      const t0 = Date.now();
      await api.close();
      assert.ok(Date.now() - t0 < 1000);
      assert.equal(await pending, 'TypeError', 'the connection was cut');
    } finally {
      world.remove();
    }
  });
});
