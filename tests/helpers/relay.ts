import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP relay to `target` that can hold everything in both directions (`hold(true)`) and
 * pass it on later, as a store that stops answering for a while.
 */
export async function startRelay(target: URL) {
  let holding = false;
  let held: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const relay = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    const forward = (from: Socket, to: Socket) => {
      from.on('data', (chunk) => {
        if (holding) held.push(() => to.write(chunk));
        else to.write(chunk);
      });
      from.on('end', () => (holding ? held.push(() => to.end()) : to.end()));
      from.on('error', () => to.destroy());
      sockets.add(from);
      from.on('close', () => sockets.delete(from));
    };
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const { port } = relay.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    hold(on: boolean) {
      holding = on;
      if (on) return;
      const waiting = held;
      held = [];
      for (const pass of waiting) pass();
    },
    close() {
      for (const socket of sockets) socket.destroy();
      relay.close();
    },
  };
}
