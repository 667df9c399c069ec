/**
 * A stopping server refuses new connections but serves every request it has accepted a
 * connection for: a proxy that connected just before the stop and then writes its request gets
 * an answer, not a reset it may not retry.
 */
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { trackRequests } from './drain';

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.closeAllConnections();
});

async function listening() {
  const server = createServer((_request, response) => response.end('served'));
  servers.push(server);
  const requests = trackRequests(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, requests, port };
}

/** Everything the server sends on `socket` until it closes it. */
function readAll(socket: Socket): Promise<string> {
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return new Promise((resolve) => {
    socket.on('close', () => resolve(text));
    socket.on('error', () => undefined);
  });
}

describe('trackRequests().drain', () => {
  it('answers a request sent on a connection accepted before the stop, then closes it', async () => {
    const { server, requests, port } = await listening();
    const accepted = new Promise<void>((resolve) => server.once('connection', () => resolve()));
    const socket = connect(port, '127.0.0.1');
    const answer = readAll(socket);
    await accepted;
    const drained = requests.drain(5000);
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text).toMatch(/\r\nConnection: close\r\n/i);
    expect(text).toMatch(/served$/);
    expect(await drained).toEqual({ cut: 0 });
  });

  it('closes a kept-alive connection idle after its answer, and refuses new ones', async () => {
    const { requests, port } = await listening();
    const socket = connect(port, '127.0.0.1');
    const answer = readAll(socket);
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise<void>((resolve) => socket.once('data', () => resolve()));
    expect(await requests.drain(5000)).toEqual({ cut: 0 });
    expect(await answer).toMatch(/served$/);
    const refused = await new Promise<string>((resolve) => {
      const late = connect(port, '127.0.0.1');
      late.on('connect', () => resolve('connected'));
      late.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
  });

  it('cuts a connection that never sends its request once the time is up', async () => {
    const { server, requests, port } = await listening();
    const accepted = new Promise<void>((resolve) => server.once('connection', () => resolve()));
    const socket = connect(port, '127.0.0.1');
    const closed = readAll(socket);
    await accepted;
    expect(await requests.drain(200)).toEqual({ cut: 0 });
    expect(await closed).toBe('');
  });
});
