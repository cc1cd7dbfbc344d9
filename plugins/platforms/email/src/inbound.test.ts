import nodemailer, { type SendMailOptions } from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { EMBEDDED_IMAGE_MIN_BYTES, parseInboundMail, parseMailHead } from './inbound.js';

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** The raw bytes of a mail built by nodemailer's own composer. */
async function raw(mail: SendMailOptions): Promise<Buffer> {
  const t = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const info = (await t.sendMail({ from: 'Alice <Alice@Example.com>', to: 'bot@example.com', ...mail })) as {
    message: Buffer;
  };
  return info.message;
}

describe('parseInboundMail', () => {
  it('reads sender, threading headers and the stripped text', async () => {
    const m = await parseInboundMail(
      await raw({
        subject: 'Re:  Disk   space',
        messageId: '<m2@example.com>',
        inReplyTo: '<m1@example.com>',
        references: ['<root@example.com>', '<m1@example.com>'],
        text: 'Thanks!\n\nOn Mon, Bob <b@x> wrote:\n> old\n-- \nsig',
        headers: { 'Auto-Submitted': 'no' },
      }),
      '<fallback@x>',
      1024 * 1024,
    );
    expect(m).toMatchObject({
      messageId: '<m2@example.com>',
      from: 'alice@example.com',
      fromName: 'Alice',
      subject: 'Re: Disk space',
      references: ['<root@example.com>', '<m1@example.com>'],
      inReplyTo: ['<m1@example.com>'],
      text: 'Thanks!',
      images: [],
      files: [],
    });
    expect(m.headers['auto-submitted']).toBe('no');
  });

  it('images the model can see become images; other files become files; large ones are named', async () => {
    const m = await parseInboundMail(
      await raw({
        text: 'see attached',
        attachments: [
          { filename: 'dot.png', content: PNG, contentType: 'image/png' },
          {
            filename: '../../etc/report.pdf',
            content: Buffer.from('%PDF-1.4 tiny'),
            contentType: 'application/pdf',
          },
          { filename: 'voice.ogg', content: Buffer.from('OggS'), contentType: 'audio/ogg' },
          { filename: 'big.bin', content: Buffer.alloc(4096), contentType: 'application/octet-stream' },
        ],
      }),
      '<f@x>',
      2048,
    );
    expect(m.images).toEqual([
      { kind: 'image', data: PNG.toString('base64'), mime: 'image/png', name: 'dot.png' },
    ]);
    expect(m.files.map((f) => [f.name, f.mime, f.kind, f.data.toString()])).toEqual([
      ['report.pdf', 'application/pdf', 'document', '%PDF-1.4 tiny'],
      ['voice.ogg', 'audio/ogg', 'audio', 'OggS'],
    ]);
    expect(m.tooLarge).toEqual(['big.bin (4096 bytes)']);
  });

  it('leaves out small images embedded in an HTML body (a signature logo)', async () => {
    expect(PNG.length).toBeLessThan(EMBEDDED_IMAGE_MIN_BYTES);
    const m = await parseInboundMail(
      await raw({
        text: 'hello',
        html: '<p>hello</p><img src="cid:logo@x">',
        attachments: [{ filename: 'logo.png', content: PNG, contentType: 'image/png', cid: 'logo@x' }],
      }),
      '<f@x>',
      1024 * 1024,
    );
    expect(m.images).toEqual([]);
    expect(m.text).toBe('hello');
  });

  it('uses the fallback id when the mail has none, and the HTML text when there is no text part', async () => {
    const bytes = Buffer.from(
      'From: a@x.com\r\nTo: bot@x.com\r\nSubject: s\r\nContent-Type: text/html\r\n\r\n<p>Only <b>HTML</b></p>\r\n',
    );
    const m = await parseInboundMail(bytes, '<uid-1.7@x>', 1024);
    expect(m.messageId).toBe('<uid-1.7@x>');
    expect(m.text).toContain('Only HTML');
  });

  it('strips the quoted history of an HTML-only reply (Gmail and Outlook markup)', async () => {
    const gmail = Buffer.from(
      'From: a@x.com\r\nTo: bot@x.com\r\nSubject: Re: s\r\nContent-Type: text/html\r\n\r\n' +
        '<div dir="ltr">Yes, go ahead.</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">' +
        'On Mon, 1 Dec 2026 at 10:00, Hermes &lt;bot@x.com&gt; wrote:<br></div>' +
        '<blockquote class="gmail_quote">Shall I deploy?</blockquote></div>\r\n',
    );
    expect((await parseInboundMail(gmail, '<g@x>', 1024)).text).toBe('Yes, go ahead.');
    const outlook = Buffer.from(
      'From: a@x.com\r\nTo: bot@x.com\r\nSubject: RE: s\r\nContent-Type: text/html\r\n\r\n' +
        '<p>Approved from my side.</p><hr><div id="divRplyFwdMsg"><b>From:</b> Hermes &lt;bot@x.com&gt;<br>' +
        '<b>Sent:</b> Monday, 1 December 2026 10:00<br><b>To:</b> Alice<br><b>Subject:</b> s</div>' +
        '<div>Shall I deploy?</div>\r\n',
    );
    expect((await parseInboundMail(outlook, '<o@x>', 1024)).text).toBe('Approved from my side.');
  });
});

describe('parseMailHead', () => {
  it('reads the sender, thread facts and loop-guard headers from the header section alone', async () => {
    const head = Buffer.from(
      [
        'From: =?utf-8?q?Al=C3=AFce?= <Alice@Example.test>',
        'Subject: Re:  the\r\n  plan',
        'Message-ID: <m2@example.test>',
        'In-Reply-To: <m1@example.test>',
        'References: <m0@example.test> <m1@example.test>',
        'Auto-Submitted: no',
        '',
        '',
      ].join('\r\n'),
    );
    const h = await parseMailHead(head, '<fallback@x>');
    expect(h).toMatchObject({
      from: 'alice@example.test',
      fromName: 'Alïce',
      subject: 'Re: the plan',
      messageId: '<m2@example.test>',
      inReplyTo: ['<m1@example.test>'],
      references: ['<m0@example.test>', '<m1@example.test>'],
    });
    expect(h.headers['auto-submitted']).toBe('no');
    expect((await parseMailHead(Buffer.from('From: a@b.test\r\n'), '<fallback@x>')).messageId).toBe(
      '<fallback@x>',
    );
  });
});
