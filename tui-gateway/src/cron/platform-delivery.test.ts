import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HermesHome } from '@hermes/core/home';
import { cronDeliveryWithPlatforms } from './platform-delivery.js';

describe('cron delivery to a platform', () => {
  it('sends a job result to a webhook through the messaging layer, signed', async () => {
    const got: Array<{ body: string; sig: string | undefined; ts: string | undefined }> = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        got.push({
          body,
          sig: req.headers['x-hermes-signature'] as string,
          ts: req.headers['x-hermes-timestamp'] as string,
        });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const home = new HermesHome(mkdtempSync(join(tmpdir(), 'cron-deliver-'))).ensure();
      writeFileSync(
        home.configFile,
        `platforms:\n  webhook:\n    enabled: true\n    outbound_url: http://127.0.0.1:${port}/hook\n`,
      );
      writeFileSync(home.envFile, 'WEBHOOK_SECRET=s3cret-s3cret-s3cret\n', { mode: 0o600 });
      const delivery = cronDeliveryWithPlatforms(home);
      await delivery.deliver(
        { kind: 'platform', platform: 'webhook', chatId: 'ops' },
        { job: { id: 'j1', name: 'morning', origin: null }, text: 'Inbox summary: 3 mails', failure: false },
      );
      expect(got).toHaveLength(1);
      expect(got[0]!.body).toContain('Inbox summary: 3 mails');
      const expected = createHmac('sha256', 's3cret-s3cret-s3cret')
        .update(`${got[0]!.ts}.${got[0]!.body}`)
        .digest('hex');
      expect(got[0]!.sig).toBe(`sha256=${expected}`);
    } finally {
      server.close();
    }
  });
});
