// A "session bus" that accepts connections and never says a word, as a wedged D-Bus does: the
// credential store's helper waits on it until its bound (src/config/keychain.ts).
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';

export interface SilentBus {
  /** DBUS_SESSION_BUS_ADDRESS for it. */
  address: string;
  /** Connections it has accepted so far (a helper that reached it). */
  connections(): number;
  close(): Promise<void>;
}

export async function startSilentBus(dir: string): Promise<SilentBus> {
  const path = join(dir, 'bus.sock');
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return {
    address: `unix:path=${path}`,
    connections: () => sockets.length,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
