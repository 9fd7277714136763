import WebSocket from 'ws';

/** Closes a person's socket, and ends it if the gateway has not closed it within 2 s (the simulation never waits on one). */
export function closeSocket(ws: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    if (ws.readyState === WebSocket.CLOSED) return resolve();
    const timer = setTimeout(() => (ws.terminate(), resolve()), 2000);
    ws.once('close', () => (clearTimeout(timer), resolve()));
    ws.close();
  });
}
