import { declareSettings, integer, list, SettingError, text } from '../setting-specs.js';
import { trustedRange } from './client-address.js';

/** Where the API listens, whom it believes, and what one client may take of it. */
export interface HttpSettings {
  host: string;
  port: number;
  /** Requests per minute; 0 turns the limit off. */
  loginRateLimit: number;
  rateLimit: number;
  /** Reverse proxies (addresses, CIDR ranges) whose X-Forwarded-For is believed; empty: none. */
  trustProxy: string[];
  /** A client has this long to send a request's headers (from its connection, or the end of its last answer on it). */
  headersTimeoutS: number;
  /** A request body during which nothing arrives for this long is cut off: a slow link that still sends is never cut. */
  bodyIdleTimeoutS: number;
  /** The whole request (headers and body) must have arrived within this; 0: no bound but the idle one. */
  requestTimeoutS: number;
  /** Connections open at once from one client address (HTTP and WebSocket); over it: 429. 0: no cap. */
  maxConnectionsPerAddress: number;
  /** WebSockets open at once for one user (a session's token) or one API key; over it: close 1008. 0: no cap. */
  maxWebSocketsPerUser: number;
}

export const httpSettings = declareSettings<HttpSettings>({
  feature: 'http',
  defaults: {
    host: '127.0.0.1',
    port: 8080,
    loginRateLimit: 5,
    rateLimit: 60,
    trustProxy: [],
    headersTimeoutS: 20,
    bodyIdleTimeoutS: 30,
    requestTimeoutS: 3600,
    maxConnectionsPerAddress: 256,
    maxWebSocketsPerUser: 64,
  },
  specs: [
    {
      key: 'port',
      env: 'GARRISON_PORT',
      flag: 'port',
      serveOnly: true,
      meaning: 'HTTP port (0 picks a free one; the log says which)',
      doc: { meaning: 'HTTP port (`0` picks a free one; the log line says which)' },
      parse: integer(0, 65535),
    },
    { key: 'host', env: 'GARRISON_HOST', flag: 'host', serveOnly: true, meaning: 'address to listen on', parse: text },
    {
      key: 'loginRateLimit',
      env: 'GARRISON_LOGIN_RATE_LIMIT',
      meaning: 'login attempts per minute per client IP; 0 turns it off',
      doc: { meaning: 'login attempts per minute per client IP; `0` turns it off' },
      parse: integer(0),
    },
    {
      key: 'rateLimit',
      env: 'GARRISON_RATE_LIMIT',
      meaning: 'requests per minute per token; 0 turns it off',
      doc: {
        meaning:
          'requests per minute per token (requests without a token are not counted); `0` turns it off. Each counted answer says ' +
          'what is left: `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (seconds)',
      },
      parse: integer(0),
    },
    {
      key: 'trustProxy',
      env: 'GARRISON_TRUST_PROXY',
      shownDefault: 'none',
      meaning:
        'comma-separated addresses or CIDR ranges of reverse proxies whose X-Forwarded-For names the client; unset: the header is ignored',
      doc: {
        meaning:
          'comma-separated addresses or CIDR ranges (`127.0.0.1`, `10.0.0.0/24`, `::1`) of the reverse proxies in front of the ' +
          'service. A request from one of them is taken to come from the address its `X-Forwarded-For` names: read from the right, ' +
          "past every trusted proxy, the first other address is the client's. That address is what the login limit counts, what an " +
          "API key's address ranges are checked against, and what a session shows as where it signed in from. Unset, " +
          '`X-Forwarded-For` is ignored (anyone can send it); behind a proxy every client then looks like the proxy and shares its ' +
          'login limit. See [deploying](deploy.md#behind-a-reverse-proxy)',
      },
      parse: (raw, name) => {
        const entries = list(raw, name);
        for (const entry of entries) {
          try {
            trustedRange(entry);
          } catch (err) {
            throw new SettingError(
              `${name} must be comma-separated addresses or CIDR ranges (127.0.0.1, 10.0.0.0/24, ::1); got ${JSON.stringify(entry)}`,
              { cause: err },
            );
          }
        }
        return entries;
      },
    },
    {
      key: 'headersTimeoutS',
      env: 'GARRISON_HEADERS_TIMEOUT_S',
      meaning: "seconds a client has to send a request's headers; later: 408 and the connection closes",
      doc: {
        meaning:
          "seconds a client has to send a request's headers (a new connection, or the next request on a kept-alive one once it " +
          'begins); later: `408` and the connection closes',
      },
      parse: integer(1, 3600),
    },
    {
      key: 'bodyIdleTimeoutS',
      env: 'GARRISON_BODY_IDLE_TIMEOUT_S',
      meaning:
        'seconds a request body may go without a byte arriving; then 408 and the connection closes ' +
        '(an upload that keeps sending is never cut by it)',
      doc: {
        meaning:
          'seconds a request body may go without a byte arriving; then `408` and the connection closes. An upload that keeps ' +
          'sending, however slowly, is never cut by it',
      },
      parse: integer(1, 3600),
    },
    {
      key: 'requestTimeoutS',
      env: 'GARRISON_REQUEST_TIMEOUT_S',
      meaning:
        'seconds in which a whole request (headers and body: a 500 MiB upload on a slow link) must arrive; 0: no bound but the idle one',
      doc: {
        meaning:
          'seconds in which a whole request (headers and body) must arrive: a 500 MiB mission upload needs about 1.2 Mbit/s to ' +
          'fit; raise it for slower links, `0` leaves only the idle bound',
      },
      parse: integer(0),
    },
    {
      key: 'maxConnectionsPerAddress',
      env: 'GARRISON_MAX_CONNECTIONS_PER_ADDRESS',
      meaning:
        'connections (HTTP and WebSocket) open at once from one client address; ' +
        'past it each request is answered 429 and its connection closed; 0 turns the cap off',
      doc: {
        meaning:
          'connections (HTTP and WebSocket) open at once from one client address; past it every request on a new connection is ' +
          'answered `429` (`RATE_LIMITED`, `Retry-After`) and the connection closed. Behind a reverse proxy every client has the ' +
          "proxy's address: raise it there, or `0` turns the cap off",
      },
      parse: integer(0),
    },
    {
      key: 'maxWebSocketsPerUser',
      env: 'GARRISON_MAX_WEBSOCKETS_PER_USER',
      meaning: 'WebSockets open at once per user (sessions) or per API key; past it a new one is closed with 1008; 0 turns the cap off',
      doc: {
        meaning:
          'WebSockets open at once per user (all their sessions together) or per API key; past it a new one is closed with `1008` ' +
          'and a reason; `0` turns the cap off',
      },
      parse: integer(0),
    },
  ],
  settle(http) {
    if (!Number.isInteger(http.port) || http.port < 0 || http.port > 65535) throw new SettingError(`port out of range: ${http.port}`);
    if (http.requestTimeoutS > 0 && http.requestTimeoutS < http.headersTimeoutS) {
      throw new SettingError(
        `GARRISON_REQUEST_TIMEOUT_S (${http.requestTimeoutS}) must be 0 or at least GARRISON_HEADERS_TIMEOUT_S (${http.headersTimeoutS})`,
      );
    }
  },
});
