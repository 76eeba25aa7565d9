import type { Server, ServerResponse } from 'node:http';

/**
 * The answers under way, so that a stop can let them finish on connections that then close: without
 * that, a keep-alive connection that was busy when the stop began would stay open, idle, holding the
 * stop until its keep-alive time-out (65 s).
 */
export function trackInFlight(server: Server): { closeAfterAnswers(): void } {
  const inFlight = new Set<ServerResponse>();
  let closing = false;
  const markClosing = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  server.on('request', (_req, res: ServerResponse) => {
    if (closing) return markClosing(res);
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });
  return {
    closeAfterAnswers() {
      closing = true;
      for (const res of inFlight) markClosing(res);
    },
  };
}
