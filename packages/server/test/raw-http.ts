import { connect } from 'node:net';
import { withDeadline } from '@garrison/testkit';

export interface RawExchange {
  /** Everything the server sent, as latin1 text. */
  text: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The connection ended with an error (a reset) rather than the server's FIN. */
  error: string | null;
}

/**
 * One exchange over a plain TCP socket, for requests that an HTTP client refuses to send. `then` runs
 * once the first answer bytes arrive (e.g. to keep sending a body); the exchange ends when the server
 * closes, or after `endAfterMs` when the client gives up waiting.
 */
export function rawRequest(
  url: string,
  request: Buffer | string,
  options: { then?: (write: (data: Buffer | string) => Promise<void>) => Promise<void>; endAfterMs?: number } = {},
): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  let error: string | null = null;
  const write = (data: Buffer | string) =>
    new Promise<void>((resolve) => {
      socket.write(data, (err) => {
        if (err) error ??= (err as NodeJS.ErrnoException).code ?? err.message;
        resolve();
      });
    });
  let thenStarted = false;
  socket.on('data', (d) => {
    chunks.push(d);
    if (options.then && !thenStarted) {
      thenStarted = true;
      void options.then(write).then(() => socket.end());
    }
  });
  socket.on('error', (err: NodeJS.ErrnoException) => {
    error ??= err.code ?? err.message;
  });
  let giveUp: NodeJS.Timeout | undefined;
  if (options.endAfterMs) giveUp = setTimeout(() => socket.destroy(), options.endAfterMs);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(request);
  return withDeadline(closed, 30_000, 'the server closing the connection').then(() => {
    clearTimeout(giveUp);
    const text = Buffer.concat(chunks).toString('latin1');
    const [head = '', ...rest] = text.split('\r\n\r\n');
    const [statusLine = '', ...headerLines] = head.split('\r\n');
    const headers = Object.fromEntries(
      headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
    );
    return { text, status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n'), error };
  });
}
