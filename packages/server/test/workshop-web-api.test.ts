import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FAKE_STEAM_IDS, FakeSteamWorld, startFakeSteamWebApi, type FakeSteamWebApi } from '@garrison/testkit';
import { ApiError } from '@garrison/core';
import { fetchCollectionItems, fetchItemDetails, workshopIdOf, type SteamWebApiOptions } from '../src/steam/workshop/web-api.js';

/** The Web API client against the testkit's fake Steam Web API (a real HTTP server), over the fake world. */
describe('the Steam Web API client', () => {
  let world: FakeSteamWorld;
  let api: FakeSteamWebApi;
  let options: SteamWebApiOptions;
  const { coreItem, vehiclesItem, mapItem, otherGameItem, otherApp, collection, gameApp } = FAKE_STEAM_IDS;

  before(async () => {
    world = FakeSteamWorld.create();
    api = await startFakeSteamWebApi({ world });
    options = { baseUrl: api.url, workshopAppId: Number(gameApp), timeoutMs: 2000 };
  });
  after(async () => {
    await api.close();
    world.remove();
  });

  const code = (err: unknown, expected: string) => err instanceof ApiError && err.code === expected;

  it("gives each item's title, time_updated and size, and says which ids Steam does not know", async () => {
    const answers = await fetchItemDetails([coreItem, '999999999', mapItem, coreItem], options);
    assert.deepEqual([...answers.keys()], [coreItem, '999999999', mapItem], 'every id asked once, in order');
    const core = answers.get(coreItem)!;
    assert.ok(core.ok);
    const state = world.read().items[coreItem];
    assert.deepEqual(core.details, {
      workshop_id: coreItem,
      title: 'Core Library (Workshop)',
      time_updated: state.time_updated,
      size_bytes: state.file_size,
    });
    const unknown = answers.get('999999999')!;
    assert.ok(!unknown.ok && unknown.error.code === 'WORKSHOP_ITEM_NOT_FOUND', JSON.stringify(unknown));
    assert.equal(unknown.ok ? null : unknown.error.status, 404);
  });

  it("refuses an item of another game's Workshop, per item", async () => {
    const answers = await fetchItemDetails([otherGameItem, vehiclesItem], options);
    const other = answers.get(otherGameItem)!;
    assert.ok(!other.ok);
    assert.equal(other.error.code, 'WORKSHOP_WRONG_APP');
    assert.match(other.error.message, new RegExp(`${otherApp}.*${gameApp}`));
    assert.ok(answers.get(vehiclesItem)!.ok);
  });

  it('asks for at most 100 ids a call', async () => {
    const before = api.requests.length;
    const ids = Array.from({ length: 150 }, (_, i) => String(5_000_000 + i));
    const answers = await fetchItemDetails([coreItem, ...ids], options);
    assert.equal(answers.size, 151);
    const calls = api.requests.slice(before);
    assert.deepEqual(
      calls.map((c) => c.ids.length),
      [100, 51],
    );
    assert.equal(calls[0].ids[0], coreItem);
  });

  it('resolves a collection to its items, in its order', async () => {
    assert.deepEqual(await fetchCollectionItems(collection, options), [coreItem, vehiclesItem, mapItem]);
    await assert.rejects(fetchCollectionItems('3999999', options), (err) => code(err, 'WORKSHOP_ITEM_NOT_FOUND'));
  });

  it("turns Steam's faults into STEAM_API_UNAVAILABLE: an HTTP error, no answer in time, an answer too large", async () => {
    api.fault({ status: 503 });
    await assert.rejects(
      fetchItemDetails([coreItem], options),
      (err) => code(err, 'STEAM_API_UNAVAILABLE') && /HTTP 503/.test((err as Error).message),
    );
    api.fault({ status: 500 });
    await assert.rejects(fetchCollectionItems(collection, options), (err) => code(err, 'STEAM_API_UNAVAILABLE'));
    api.fault({ delayMs: 1500 });
    await assert.rejects(
      fetchItemDetails([coreItem], { ...options, timeoutMs: 300 }),
      (err) => code(err, 'STEAM_API_UNAVAILABLE') && /within 300 ms/.test((err as Error).message),
    );
    await assert.rejects(
      fetchItemDetails([coreItem, vehiclesItem], { ...options, maxBytes: 500 }),
      (err) => code(err, 'STEAM_API_UNAVAILABLE') && /more than 500 bytes/.test((err as Error).message),
    );
    await assert.rejects(
      fetchItemDetails([coreItem], { ...options, baseUrl: 'http://127.0.0.1:9' }),
      (err) => code(err, 'STEAM_API_UNAVAILABLE') && (err as ApiError).status === 502,
    );
    // After the faults, Steam answers again.
    assert.ok((await fetchItemDetails([coreItem], options)).get(coreItem)!.ok);
  });

  it('takes ids as digits or as a Workshop URL, and nothing else', () => {
    assert.equal(workshopIdOf(' 2000001 '), '2000001');
    assert.equal(workshopIdOf('https://steamcommunity.com/sharedfiles/filedetails/?id=450814997'), '450814997');
    assert.equal(workshopIdOf('https://steamcommunity.com/workshop/filedetails/?l=german&id=463939057&searchtext='), '463939057');
    for (const bad of ['', 'abc', '12 +quit', '+login', 'https://example.com/?x=1', '1'.repeat(21), '-1']) {
      assert.throws(
        () => workshopIdOf(bad),
        (err) => code(err, 'VALIDATION_ERROR'),
        bad,
      );
    }
  });
});
