/** The capabilities document names what the server offers. */
import { describe, expect, it } from 'vitest';
import { capabilities } from './catalog.js';

describe('capabilities', () => {
  it('names the model, the endpoints and CORS when origins are configured', () => {
    const c = capabilities({
      host: '127.0.0.1',
      port: 0,
      key: 'k',
      modelName: 'm',
      corsOrigins: ['http://a'],
    });
    expect(c).toMatchObject({
      model: 'm',
      features: { chat_completions: true, responses_api: true, image_input: true, cors: true },
      endpoints: { responses: '/v1/responses' },
    });
  });
});
