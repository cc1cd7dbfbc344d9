// `/model provider/model` completion: what the popup offers for what is typed.
import { describe, expect, it } from 'vitest';
import {
  CATALOG_RETRY_MS,
  CATALOG_TTL_MS,
  completeModelArgs,
  ModelCatalogSource,
  type ModelCatalog,
} from './model-complete.js';

const catalog: ModelCatalog = {
  provider: 'openrouter',
  current: 'anthropic/claude-sonnet-4.5',
  models: ['anthropic/claude-sonnet-4.5'],
  providers: [
    {
      id: 'openrouter',
      label: 'OpenRouter',
      aliases: [],
      kind: 'hosted',
      key_set: true,
      models: ['openai/gpt-5'],
      aggregator: true,
    },
    {
      id: 'deepseek',
      label: 'DeepSeek',
      aliases: ['deep-seek'],
      kind: 'hosted',
      key_set: false,
      models: ['deepseek-chat', 'deepseek-reasoner'],
    },
    { id: 'zai', label: 'z.ai / GLM', aliases: ['glm'], kind: 'hosted', key_set: true, models: ['glm-4.6'] },
    { id: 'ollama', label: 'Ollama', aliases: [], kind: 'local', key_set: false, models: [] },
    {
      id: 'bedrock',
      label: 'AWS Bedrock',
      aliases: ['aws'],
      kind: 'unsupported',
      key_set: false,
      models: [],
    },
  ],
};
const labels = (text: string, c: ModelCatalog = catalog) => completeModelArgs(text, c).map((x) => x.label);
/** The same catalog on a direct (non-aggregator) provider. */
const direct: ModelCatalog = { ...catalog, provider: 'zai', models: ['glm-4.6'], current: 'glm-4.6' };

describe('/model completion', () => {
  it('offers provider ids (key status shown) and the current provider’s models', () => {
    expect(labels('/model d', direct)).toEqual(['deepseek/']);
    expect(completeModelArgs('/model d', direct)[0]).toMatchObject({
      text: '/model deepseek/',
      final: false,
    });
    expect(completeModelArgs('/model d', direct)[0]!.detail).toBe('DeepSeek · no key');
    expect(labels('/model gl', direct)).toEqual(['zai/', 'glm-4.6 (current)']); // by alias
    expect(labels('/model a')).toEqual(['anthropic/claude-sonnet-4.5 (current)']);
    expect(labels('/model aws')).toEqual([]); // a provider that cannot run here is not offered
    expect(labels('/model ')).toContain('ollama/');
  });

  it('after provider/ offers that provider’s models as full choices', () => {
    const items = completeModelArgs('/model deepseek/deepseek-r', direct);
    expect(items).toEqual([
      {
        text: '/model deepseek/deepseek-reasoner',
        label: 'deepseek/deepseek-reasoner',
        detail: 'DeepSeek',
        final: true,
      },
    ]);
    expect(labels('/model glm/', direct)).toEqual(['glm/glm-4.6']);
  });

  it('on an aggregator a hosted provider is offered in the explicit two-word form, and its models after it', () => {
    // the catalog's provider is OpenRouter: `deepseek/…` would stay an OpenRouter model id
    expect(completeModelArgs('/model d', catalog)[0]).toMatchObject({
      text: '/model deepseek ',
      label: 'deepseek ',
    });
    expect(labels('/model o')).toEqual(expect.arrayContaining(['ollama/', 'openrouter/']));
    expect(completeModelArgs('/model deepseek deepseek-c', catalog)).toEqual([
      {
        text: '/model deepseek deepseek-chat',
        label: 'deepseek deepseek-chat',
        detail: 'DeepSeek',
        final: true,
      },
    ]);
    expect(completeModelArgs('/model deepseek/', catalog)).toEqual([]);
    expect(completeModelArgs('/model d', direct)[0]).toMatchObject({ text: '/model deepseek/' });
  });

  it('nothing for other commands or a third word', () => {
    expect(completeModelArgs('/title d', catalog)).toEqual([]);
    expect(completeModelArgs('/model deepseek x y', catalog)).toEqual([]);
    expect(completeModelArgs('/model d', null)).toEqual([]);
  });

  it('the source fetches once when /model is typed, tells subscribers, and fetches again when old', async () => {
    let now = 0;
    let calls = 0;
    const src = new ModelCatalogSource(
      async () => {
        calls++;
        return {
          models: [{ id: 'm', provider: 'deepseek' }],
          current: 'm',
          provider: 'deepseek',
          providers: catalog.providers,
        };
      },
      () => now,
    );
    let told = 0;
    src.subscribe(() => told++);
    expect(src.complete('hello')).toEqual([]);
    expect(calls).toBe(0);
    expect(src.complete('/model deepseek/')).toEqual([]);
    src.complete('/model deepseek/d');
    await new Promise((r) => setImmediate(r));
    expect([calls, told]).toEqual([1, 1]);
    expect(src.complete('/model deepseek/').map((c) => c.label)).toEqual([
      'deepseek/deepseek-chat',
      'deepseek/deepseek-reasoner',
    ]);
    now += CATALOG_TTL_MS + 1;
    src.complete('/model d');
    await new Promise((r) => setImmediate(r));
    expect(calls).toBe(2);
  });

  it('a failed fetch (not connected yet) is retried a second later, not after the whole TTL', async () => {
    let now = 0;
    let calls = 0;
    const src = new ModelCatalogSource(
      async () => {
        calls++;
        if (calls === 1) throw new Error('not connected');
        return { models: [], current: '', provider: 'deepseek', providers: catalog.providers };
      },
      () => now,
    );
    src.complete('/model d');
    await new Promise((r) => setImmediate(r));
    src.complete('/model de');
    expect(calls).toBe(1);
    now += CATALOG_RETRY_MS + 1;
    src.complete('/model dee');
    await new Promise((r) => setImmediate(r));
    expect(calls).toBe(2);
    expect(src.complete('/model dee').map((c) => c.label)).toContain('deepseek/');
  });
});
