// The baseline side of log-fanout: a bare ws server that broadcasts timestamped lines at a rate.
import { WebSocketServer } from 'ws';

const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
wss.on('listening', () => process.send({ port: wss.address().port }));
process.on('message', ({ rate, seconds }) => {
  const total = rate * seconds;
  let sent = 0;
  const started = Date.now();
  const timer = setInterval(() => {
    const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * rate));
    for (; sent < due; sent += 1) {
      const text = JSON.stringify({
        type: 'log',
        server_id: 1,
        data: {
          timestamp: new Date().toISOString(),
          level: 'info',
          message: `stream ${sent + 1}/${total} at ${(performance.timeOrigin + performance.now()).toFixed(3)}`,
        },
      });
      for (const client of wss.clients) client.send(text);
    }
    if (sent >= total) clearInterval(timer);
  }, 2);
});
