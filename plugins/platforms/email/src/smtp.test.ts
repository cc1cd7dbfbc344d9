/**
 * The SMTP sender against a scripted SMTP server on a loopback socket (RFC 5321 replies): the
 * mail's headers and parts, and which refusals are final (5xx) or retried (4xx, refused login).
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SmtpSender } from './smtp.js';

/** Answers of the scripted server by command (default: success). */
interface Script {
  auth?: string;
  mail?: string;
  rcpt?: string;
}

/** A one-mail-at-a-time SMTP server recording the DATA it received. */
async function smtpServer(script: Script): Promise<{ port: number; data: string[]; close(): Promise<void> }> {
  const data: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.write('220 smtp.test ESMTP\r\n');
    let buf = '';
    let inData = false;
    let body = '';
    socket.on('data', (d: Buffer) => {
      buf += d.toString('utf8');
      let nl: number;
      while ((nl = buf.indexOf('\r\n')) !== -1) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            data.push(body);
            body = '';
            socket.write('250 2.0.0 queued\r\n');
          } else body += `${line}\n`;
          continue;
        }
        const cmd = line.split(' ')[0]!.toUpperCase();
        if (cmd === 'EHLO') socket.write('250-smtp.test\r\n250 AUTH PLAIN\r\n');
        else if (cmd === 'AUTH') socket.write(`${script.auth ?? '235 2.7.0 ok'}\r\n`);
        else if (cmd === 'MAIL') socket.write(`${script.mail ?? '250 2.1.0 ok'}\r\n`);
        else if (cmd === 'RCPT') socket.write(`${script.rcpt ?? '250 2.1.5 ok'}\r\n`);
        else if (cmd === 'DATA') {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (cmd === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    data,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function sender(script: Script) {
  const srv = await smtpServer(script);
  cleanup.push(() => srv.close());
  const smtp = new SmtpSender(
    { host: '127.0.0.1', port: srv.port, tls: false, tlsVerify: true, user: 'bot@x.test', password: 'pw' },
    { address: 'bot@x.test', name: 'Hermes' },
  );
  cleanup.push(() => smtp.close());
  return { smtp, srv };
}

const mail = {
  to: 'alice@x.test',
  subject: 'Re: Hi',
  text: 'Hello **there**',
  messageId: '<hermes.1@x.test>',
  inReplyTo: '<a1@x.test>',
  references: ['<root@x.test>', '<a1@x.test>'],
};

describe('SmtpSender', () => {
  it('sends text and HTML with the threading and Auto-Submitted headers', async () => {
    const { smtp, srv } = await sender({});
    expect(await smtp.send(mail)).toEqual({ ok: true, messageId: '<hermes.1@x.test>' });
    const raw = srv.data[0]!;
    expect(raw).toMatch(/^Message-ID: <hermes\.1@x\.test>$/m);
    expect(raw).toMatch(/^In-Reply-To: <a1@x\.test>$/m);
    expect(raw).toMatch(/^References: <root@x\.test> <a1@x\.test>$/m);
    expect(raw).toMatch(/^Auto-Submitted: auto-replied$/m);
    expect(raw).toMatch(/^From: Hermes <bot@x\.test>$/m);
    expect(raw).toContain('multipart/alternative');
    expect(raw).toContain('<strong>there</strong>');
  });

  it('a 5xx refusal is final; a 4xx one and a refused login are retried', async () => {
    const refused = await (await sender({ rcpt: '550 5.1.1 no such user' })).smtp.send(mail);
    expect(refused).toMatchObject({
      ok: false,
      retryable: false,
      error: expect.stringMatching(/^smtp: .*550/),
    });
    const later = await (await sender({ mail: '451 4.3.0 try later' })).smtp.send(mail);
    expect(later.ok).toBe(false);
    expect(later.retryable).toBeUndefined();
    const login = await (await sender({ auth: '535 5.7.8 bad credentials' })).smtp.send(mail);
    expect(login.ok).toBe(false);
    expect(login.retryable).toBeUndefined();
  });
});
