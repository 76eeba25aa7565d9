import type { ErrorCode } from '@garrison/core';
import { expectOnly } from '@garrison/core';

/** A failure as the service answered it, in either form the spec allows (`{success:false,error}` or `{detail}`). */
export class GarrisonApiError extends Error {
  override name = 'GarrisonApiError';

  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** The spec's error code; `UNKNOWN` when the answer carried none (a proxy's page, say). */
    readonly code: ErrorCode | 'UNKNOWN',
    message: string,
    /** Members besides code and message, e.g. `current_config` and `current_version` of a config conflict. */
    readonly extra: Record<string, unknown> = {},
    /** Seconds to wait before trying again, from `Retry-After` (a 429). */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

/** Reads a failure answer; anything it does not recognise keeps its status and text. */
export async function errorFrom(response: Response): Promise<GarrisonApiError> {
  const text = await response.text();
  const retryAfter = Number(response.headers.get('retry-after'));
  const retry = Number.isFinite(retryAfter) && retryAfter >= 0 && response.headers.has('retry-after') ? retryAfter : null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    expectOnly(err, SyntaxError); // not JSON: a proxy's page, say
    return new GarrisonApiError(response.status, 'UNKNOWN', text.slice(0, 500) || response.statusText, {}, retry);
  }
  const body = parsed as { error?: unknown; detail?: unknown };
  const failure = (body?.error ?? body?.detail) as { code?: unknown; message?: unknown } | undefined;
  if (!failure || typeof failure !== 'object' || typeof failure.code !== 'string') {
    return new GarrisonApiError(response.status, 'UNKNOWN', text.slice(0, 500), {}, retry);
  }
  const { code, message, ...extra } = failure as Record<string, unknown>;
  return new GarrisonApiError(response.status, code as ErrorCode, String(message ?? code), extra, retry);
}
