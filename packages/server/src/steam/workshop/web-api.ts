import { ApiError } from '@garrison/core';

/**
 * The keyless part of the Steam Web API the Workshop needs (ISteamRemoteStorage): each item's details
 * (`time_updated` is what the update check compares) and a collection's items. Steam's answers are read
 * with a time limit and a size limit, so that a slow or endless answer holds nothing for long.
 */

/** Steam takes up to 100 ids a call in practice; more go into further calls. */
const BATCH_SIZE = 100;
const DEFAULT_TIMEOUT_MS = 30_000;
/** 100 items with Steam's longest descriptions (8,000 characters each) stay well below this. */
const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;
/** Steam's EResult OK. */
const RESULT_OK = 1;

export interface SteamWebApiOptions {
  /** GARRISON_STEAM_API_URL, without a trailing slash. */
  baseUrl: string;
  /** The adapter's Workshop app: an item of another game is refused. */
  workshopAppId: number;
  timeoutMs?: number;
  maxBytes?: number;
  /** Aborts the calls (a cancelled job). */
  signal?: AbortSignal;
}

/** What Steam says of one item, as Garrison keeps it. */
export interface WorkshopItemDetails {
  workshop_id: string;
  title: string;
  /** Unix seconds of the item's last update on Steam. */
  time_updated: number;
  size_bytes: number | null;
}

/** One item's answer: its details, or why it cannot be had (unknown, hidden, of another game). */
export type ItemAnswer = { ok: true; details: WorkshopItemDetails } | { ok: false; error: ApiError };

const WORKSHOP_URL_ID = /[?&]id=(\d{1,20})(?:&|#|$)/;

/**
 * A Workshop id from what someone typed: the digits, or a Workshop page's URL
 * (`https://steamcommunity.com/sharedfiles/filedetails/?id=123`). Anything else is refused, so that no
 * text reaches SteamCMD's command line or Steam's form but an id.
 */
export function workshopIdOf(input: string, field = 'id'): string {
  const text = input.trim();
  if (/^\d{1,20}$/.test(text)) return text.replace(/^0+(?=\d)/, '');
  if (/^https?:\/\//i.test(text)) {
    const id = WORKSHOP_URL_ID.exec(text)?.[1];
    if (id) return id.replace(/^0+(?=\d)/, '');
  }
  throw new ApiError(
    'VALIDATION_ERROR',
    `${field}: ${JSON.stringify(input.slice(0, 200))} is not a Workshop id: give its digits or its Workshop page's URL (…?id=123)`,
  );
}

const unavailable = (why: string, cause?: unknown) =>
  new ApiError('STEAM_API_UNAVAILABLE', `the Steam Web API ${why}: retry later (GARRISON_STEAM_API_URL)`, { cause });

/** The answer's text, cut off (and refused) past `maxBytes`: Steam's answer is read as it streams. */
async function boundedText(res: Response, maxBytes: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw unavailable(`answered more than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** POSTs a form to `ISteamRemoteStorage/<method>/v1/` and answers its `response` object. */
async function call(method: string, form: URLSearchParams, options: SteamWebApiOptions): Promise<Record<string, unknown>> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const url = `${options.baseUrl}/ISteamRemoteStorage/${method}/v1/`;
  let text: string;
  try {
    const res = await fetch(url, {
      method: 'POST',
      body: form,
      signal,
      redirect: 'error',
      headers: { accept: 'application/json', 'user-agent': 'Garrison' },
    });
    if (res.status !== 200) {
      await res.body?.cancel();
      throw unavailable(`answered ${method} with HTTP ${res.status}`);
    }
    text = await boundedText(res, options.maxBytes ?? DEFAULT_MAX_BYTES);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (options.signal?.aborted) throw err; // the caller's cancel, told as it is
    if (timeout.aborted) throw unavailable(`did not answer ${method} within ${timeoutMs} ms`, err);
    throw unavailable(`could not be reached (${(err as Error).message})`, err);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw unavailable(`answered ${method} with something that is not JSON`, err);
  }
  const response = (body as { response?: unknown } | null)?.response;
  if (typeof response !== 'object' || response === null) throw unavailable(`answered ${method} without its "response"`);
  const result = (response as { result?: unknown }).result;
  if (result !== RESULT_OK) throw unavailable(`refused ${method} (result ${JSON.stringify(result)})`);
  return response as Record<string, unknown>;
}

/** `<count>` and `publishedfileids[0..n-1]`: the form both methods take. */
function idsForm(countName: string, ids: readonly string[]): URLSearchParams {
  const form = new URLSearchParams({ [countName]: String(ids.length) });
  ids.forEach((id, i) => form.set(`publishedfileids[${i}]`, id));
  return form;
}

const notFound = (id: string) =>
  new ApiError('WORKSHOP_ITEM_NOT_FOUND', `Workshop item ${id} is unknown to Steam, or hidden (private, removed): check its id`);

function answerOf(id: string, raw: Record<string, unknown> | undefined, appId: number): ItemAnswer {
  if (!raw || raw.result !== RESULT_OK) return { ok: false, error: notFound(id) };
  const title = typeof raw.title === 'string' && raw.title.trim() ? raw.title.trim() : id;
  const app = Number(raw.consumer_app_id);
  if (app !== appId) {
    const error = new ApiError(
      'WORKSHOP_WRONG_APP',
      `Workshop item ${id} (${JSON.stringify(title.slice(0, 100))}) belongs to Steam app ${app}, not to this game's Workshop (${appId})`,
    );
    return { ok: false, error };
  }
  const size = Number(raw.file_size);
  return {
    ok: true,
    details: {
      workshop_id: id,
      title: title.slice(0, 255),
      time_updated: Number(raw.time_updated) || 0,
      size_bytes: Number.isSafeInteger(size) && size >= 0 ? size : null,
    },
  };
}

/**
 * Each item's details, by id, in batches of 100: every id asked has an answer (an item Steam does not
 * know, or hides, has its error). Throws STEAM_API_UNAVAILABLE when Steam did not answer as it does.
 */
export async function fetchItemDetails(ids: readonly string[], options: SteamWebApiOptions): Promise<Map<string, ItemAnswer>> {
  const unique = [...new Set(ids)];
  const answers = new Map<string, ItemAnswer>();
  for (let i = 0; i < unique.length; i += BATCH_SIZE) {
    const batch = unique.slice(i, i + BATCH_SIZE);
    const response = await call('GetPublishedFileDetails', idsForm('itemcount', batch), options);
    const list = Array.isArray(response.publishedfiledetails) ? (response.publishedfiledetails as Record<string, unknown>[]) : [];
    const byId = new Map(list.filter((d) => d && typeof d === 'object').map((d) => [String(d.publishedfileid), d]));
    for (const id of batch) answers.set(id, answerOf(id, byId.get(id), options.workshopAppId));
  }
  return answers;
}

/**
 * The items of a collection, in its order (Steam's `sortorder`). Only items are taken: a collection
 * listed inside it is not followed. WORKSHOP_ITEM_NOT_FOUND for a collection Steam does not know.
 */
export async function fetchCollectionItems(collectionId: string, options: SteamWebApiOptions): Promise<string[]> {
  const response = await call('GetCollectionDetails', idsForm('collectioncount', [collectionId]), options);
  const details = Array.isArray(response.collectiondetails) ? (response.collectiondetails as Record<string, unknown>[]) : [];
  const entry = details.find((d) => d && String(d.publishedfileid) === collectionId);
  if (!entry || entry.result !== RESULT_OK || !Array.isArray(entry.children)) {
    throw new ApiError('WORKSHOP_ITEM_NOT_FOUND', `Workshop collection ${collectionId} is unknown to Steam, or hidden: check its id`);
  }
  const children = (entry.children as { publishedfileid?: unknown; sortorder?: unknown; filetype?: unknown }[])
    .filter((c) => Number(c.filetype ?? 0) === 0 && /^\d{1,20}$/.test(String(c.publishedfileid)))
    .sort((a, b) => Number(a.sortorder ?? 0) - Number(b.sortorder ?? 0));
  return [...new Set(children.map((c) => String(c.publishedfileid)))];
}
