/**
 * A turn with images: the scripted model receives image parts, the user message is stored with
 * its attachments, a resumed session sends them again, and a model without vision refuses the
 * prompt before anything is stored.
 */
import { describe, expect, it } from 'vitest';
import { MediaStore } from '../images/media-store.js';
import { TINY_PNG } from '../images/testing.js';
import { toNewMessage } from './compressor.js';
import { historyFromRecords } from './history.js';
import { useTestAgents } from './testing.js';

const t = useTestAgents();
const pngUrl = `data:image/png;base64,${TINY_PNG.toString('base64')}`;

describe('Agent with images', () => {
  it('sends image parts, stores the attachments, and replays them from the stored history', async () => {
    const a = t.create({ model: { vision: true } });
    const media = new MediaStore(a.home.mediaDir);
    const img = media.put(TINY_PNG, 'image/png', 'dot.png');
    const before = t.model.requests.length;
    t.model.push({ text: 'a red dot' }, { text: 'still a red dot' });
    expect((await a.agent.runTurn('what is this?', undefined, { images: [img] })).status).toBe('complete');
    const sent = t.model.requests[before]!.body.messages.at(-1);
    expect(sent).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image_url', image_url: { url: pngUrl } },
      ],
    });
    const stored = a.db.getMessages(a.session.id).find((m) => m.role === 'user')!;
    expect(JSON.parse(stored.attachments!)).toEqual([img]);

    // a later turn (and a session loaded from the store) sends the image again
    await a.agent.runTurn('and now?');
    const again = t.model.requests[before + 1]!.body.messages;
    expect(again.find((m: { role: string }) => m.role === 'user').content[1]).toEqual({
      type: 'image_url',
      image_url: { url: pngUrl },
    });
    const { history } = historyFromRecords(a.db.getMessages(a.session.id), media);
    expect(history[0]).toEqual(sent);

    // copied into a compression's child session, the message keeps its image (same stored file)
    const copy = toNewMessage(sent);
    expect(copy.content).toBe('what is this?');
    expect(JSON.parse(copy.attachments!)).toEqual([{ ...img, name: 'image-1.png' }]);
    const child = a.db.createSession({ source: 'test' });
    a.db.appendMessage(child.id, copy);
    expect(historyFromRecords(a.db.getMessages(child.id), media).history[0]).toEqual(sent);
  });

  it('refuses images for a model without vision, naming the model and the setting; nothing stored', async () => {
    const a = t.create(); // model "fake", model.vision auto: unknown → no vision
    const img = new MediaStore(a.home.mediaDir).put(TINY_PNG, 'image/png', 'dot.png');
    const before = t.model.requests.length;
    const r = await a.agent.runTurn('look', undefined, { images: [img] });
    expect(r.status).toBe('error');
    expect(r.error).toMatch(/model fake cannot take images.*model\.vision: true/);
    expect(a.events.find((e) => e.type === 'error')?.payload).toMatchObject({ message: r.error });
    expect(t.model.requests.length).toBe(before);
    expect(a.db.getMessages(a.session.id).filter((m) => m.role === 'user')).toEqual([]);
  });
});
