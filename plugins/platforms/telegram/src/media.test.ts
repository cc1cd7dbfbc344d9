import { describe, expect, it } from 'vitest';
import { hasMedia, pickPhotoSize } from './media.js';

describe('Telegram media', () => {
  it('picks the largest photo size within the cap', () => {
    const sizes = [
      { file_id: 's', width: 90, height: 90, file_size: 1_000 },
      { file_id: 'm', width: 320, height: 320, file_size: 20_000 },
      { file_id: 'l', width: 1280, height: 1280, file_size: 200_000 },
    ];
    expect(pickPhotoSize(sizes, 1_000_000)!.file_id).toBe('l');
    expect(pickPhotoSize(sizes, 50_000)!.file_id).toBe('m');
    expect(pickPhotoSize(sizes, 10)).toBeUndefined();
  });

  it('knows which messages carry media', () => {
    const chat = { id: 1, type: 'private' as const };
    expect(hasMedia({ message_id: 1, chat, text: 'hi' })).toBe(false);
    expect(hasMedia({ message_id: 1, chat, voice: { file_id: 'v' } })).toBe(true);
  });
});
