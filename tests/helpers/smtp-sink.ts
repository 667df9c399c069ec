import { createServer, type Socket } from 'node:net';

export interface SinkMail {
  from: string;
  to: string[];
  /** The raw message: headers, a blank line, the body. */
  data: string;
}

/**
 * A minimal SMTP server on loopback that accepts every message and keeps it, standing in for
 * the mail relay of a production start. It speaks just what nodemailer needs (no TLS, no auth).
 * `port` 0 takes a free one; a given port lets a test bring a relay back where it was.
 * `refuse` makes it a relay that refuses, naming what it refused as real ones do: every
 * recipient (550), or every login (it asks for one, then answers 535).
 */
export async function startSmtpSink(port = 0, refuse?: 'recipients' | 'login') {
  const mails: SinkMail[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    let current: SinkMail = { from: '', to: [], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 sink ESMTP');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          current.data = buffer.slice(0, end).replace(/^\.\./gm, '.');
          buffer = buffer.slice(end + 5);
          mails.push(current);
          current = { from: '', to: [], data: '' };
          inData = false;
          reply('250 queued');
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline < 0) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') {
          reply(refuse === 'login' ? '250-sink\r\n250 AUTH PLAIN' : '250 sink');
        } else if (verb === 'AUTH') {
          // AUTH PLAIN's answer: base64 of NUL, the user, NUL, the password.
          const [, user = ''] = Buffer.from(line.split(' ').at(-1) ?? '', 'base64')
            .toString()
            .split('\0');
          reply(`535 5.7.8 Authentication failed for ${user}`);
        } else if (verb === 'RCPT' && refuse === 'recipients') {
          reply(`550 5.1.1 <${/<([^>]*)>/.exec(line)?.[1]}>: Recipient address rejected`);
        } else if (verb === 'MAIL') {
          current.from = /<([^>]*)>/.exec(line)?.[1] ?? '';
          reply('250 ok');
        } else if (verb === 'RCPT') {
          current.to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply('250 ok');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 go ahead');
        } else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('250 ok');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${bound}`,
    port: bound,
    mails,
    /** The newest mail to `to` whose text matches `pattern`, waiting up to 15 s for it. */
    async waitFor(to: string, pattern: RegExp): Promise<string> {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const mail = mails.findLast(
          (m) => m.to.includes(to.toLowerCase()) && pattern.test(decoded(m.data)),
        );
        if (mail) return decoded(mail.data);
        if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${pattern}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Undoes quoted-printable soft breaks and escapes, enough to read a code in a text mail. */
function decoded(raw: string): string {
  return raw
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
