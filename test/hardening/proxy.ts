// A local proxy for the proxy tests (proxy-loop.test.ts, test/e2e/proxy-interrupt.test.ts): it
// counts connections and treats each one as `behaviour` says; it never tunnels anywhere.
import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';

export type Behaviour = (socket: Socket) => void;

export interface LocalProxy {
  server: Server;
  url: string;
  connections: () => number;
  sockets: Set<Socket>;
}

export async function startProxy(behaviour: Behaviour): Promise<LocalProxy> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    behaviour(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, url, connections: () => connections, sockets };
}

export async function closeProxy(proxy: LocalProxy): Promise<void> {
  for (const s of proxy.sockets) s.destroy();
  await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
}
