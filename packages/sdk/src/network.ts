import { expectOnly } from '@garrison/core';

/** Why the service could not be asked: nothing answered the connection, or no answer came in time. */
export type NetworkFailure = 'unreachable' | 'timeout';

/**
 * The service was not reached, or did not answer within the client's `timeoutMs`: no answer of the
 * service's to read, unlike `GarrisonApiError`. A `TypeError`, as the platform's fetch throws for the
 * same failures, so that code written against fetch's failure still catches it.
 */
export class GarrisonNetworkError extends TypeError {
  override name = 'GarrisonNetworkError';

  constructor(
    readonly reason: NetworkFailure,
    /** The service's origin (scheme, host and port: never a path, a query or credentials). */
    readonly origin: string,
    message: string,
    /** The system's error code when there is one (`ECONNREFUSED`, `ENOTFOUND`, …). */
    readonly systemCode: string | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const MEANINGS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be looked up',
  EHOSTUNREACH: 'no route to the host',
  ENETUNREACH: 'the network is unreachable',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the connection was closed',
  CERT_HAS_EXPIRED: "the host's certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the host's certificate is self-signed",
};

/** The system's code of a failed fetch: undici keeps it on the cause (or on the first of several). */
function systemCodeOf(err: unknown): string | null {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'ABORT_ERR') return code;
    const errors = (e as { errors?: unknown }).errors;
    e = (e as { cause?: unknown }).cause ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  return null;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch (err) {
    expectOnly(err, TypeError); // not a URL: shown as given
    return url;
  }
}

/**
 * What a failure of fetch (or of reading its answer) becomes: a `GarrisonNetworkError` when it is one of
 * the network's, or the time-out's; anything else (a bug, a test double's own error) is given back as is.
 */
export function networkError(err: unknown, url: string, timedOut: boolean, timeoutMs: number | undefined): unknown {
  const origin = originOf(url);
  if (timedOut)
    return new GarrisonNetworkError('timeout', origin, `no answer from ${origin} within ${(timeoutMs ?? 0) / 1000} s`, null, {
      cause: err,
    });
  if (!(err instanceof TypeError) || err instanceof GarrisonNetworkError) return err;
  const code = systemCodeOf(err);
  // fetch's own message is "fetch failed"; its cause says why (a refused port, say).
  const cause = err.cause instanceof Error ? err.cause.message : err.message;
  const why = code ? `${MEANINGS[code] ?? cause} (${code})` : cause;
  return new GarrisonNetworkError('unreachable', origin, `cannot reach ${origin}: ${why}`, code, { cause: err });
}
