/**
 * The spec's error catalogue. Every failure the service reports is one of these codes;
 * docs/errors.md lists them with cause and fix, and a test keeps the two in step.
 */
export const ErrorCodes = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  NOT_SUPPORTED: 400,
  CONFLICT: 409,
  SERVER_ALREADY_RUNNING: 409,
  SERVER_NOT_RUNNING: 409,
  SERVER_NOT_STOPPED: 409,
  PORT_IN_USE: 409,
  CONFIG_VERSION_CONFLICT: 409,
  VERSION_CONFLICT: 409,
  GAME_TYPE_NOT_FOUND: 404,
  EXE_NOT_ALLOWED: 400,
  EXE_NOT_FOUND: 400,
  INVALID_CONFIG: 422,
  CONFIG_WRITE_ERROR: 500,
  NO_RCON_PASSWORD: 400,
  RCON_ERROR: 503,
  NODE_UNAVAILABLE: 503,
  ADAPTER_ERROR: 400,
  FILE_TOO_LARGE: 413,
  NO_FILENAME: 400,
  VALIDATION_ERROR: 400,
  RATE_LIMITED: 429,
  MISSION_IN_ROTATION: 409,
  // SteamCMD's failures (docs/workshop.md): a job's error carries them; the status says whose move it is.
  STEAM_ACCOUNT_REQUIRED: 409,
  STEAM_GUARD_REQUIRED: 409,
  STEAM_LOGIN_FAILED: 422,
  STEAM_RATE_LIMITED: 503,
  STEAM_NO_SUBSCRIPTION: 422,
  STEAM_DISK_FULL: 507,
  STEAM_NETWORK: 502,
  STEAM_BRANCH_PASSWORD: 422,
  STEAM_ITEM_TIMEOUT: 504,
  STEAM_ITEM_FAILED: 502,
  STEAMCMD_NOT_FOUND: 503,
  STEAMCMD_FAILED: 502,
  INSTALL_INCOMPLETE: 409,
  // The Workshop's items (docs/workshop.md): Steam's Web API, and installing a download into a server.
  STEAM_API_UNAVAILABLE: 502,
  WORKSHOP_ITEM_NOT_FOUND: 404,
  WORKSHOP_WRONG_APP: 422,
  WORKSHOP_KEY_CONFLICT: 409,
  WORKSHOP_UNSAFE_ITEM: 422,
  MOD_IN_USE: 409,
  INTERNAL_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ErrorCodes;

/** A failure with the spec's code, raised where the fault is known and rendered into the envelope in one place. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Members added to the envelope's `error` object, e.g. `current_config` of a version conflict. */
  readonly extra: Record<string, unknown>;
  /** Headers the response must carry, e.g. `Retry-After`. */
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { status?: number; extra?: Record<string, unknown>; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.status = options.status ?? ErrorCodes[code];
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
