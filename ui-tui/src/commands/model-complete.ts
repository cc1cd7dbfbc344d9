/**
 * Completion of `/model`'s argument in the composer: provider ids (`deepseek/`), then the models
 * of the provider typed (`deepseek/deepseek-chat`), and the current provider's known models. The
 * catalog comes from the daemon (`model.list`'s `providers`), fetched when `/model ` is first
 * typed and again when it is older than `CATALOG_TTL_MS`.
 */
import type { MethodResult } from '@hermes/core/protocol';

type ModelListResult = MethodResult<'model.list'>;

/** One argument completion: the composer text it puts in, and how the popup shows it. */
export interface ArgCompletion {
  /** The whole composer text after accepting it. */
  text: string;
  label: string;
  detail: string;
  /** True when accepting it with Enter sends the line (a full `provider/model`). */
  final: boolean;
}

/** What the completion knows: the named providers and the configured provider and model. */
export interface ModelCatalog {
  provider: string;
  current: string;
  providers: NonNullable<ModelListResult['providers']>;
  /** The configured models (primary and fallbacks). */
  models: string[];
}

/** How long a fetched catalog is used before it is asked for again, ms. */
export const CATALOG_TTL_MS = 30_000;
/** After a failed fetch (not connected yet …), the next keystroke asks again after this, ms. */
export const CATALOG_RETRY_MS = 1_000;
const MAX_ITEMS = 50;

function status(p: ModelCatalog['providers'][number]): string {
  if (p.kind === 'unsupported') return 'not supported here';
  if (p.kind === 'local') return 'local';
  return p.key_set ? 'key set' : 'no key';
}

/**
 * The completions of `text` (the composer's content) for `/model ARG` or `/model PROVIDER MODEL`;
 * empty for anything else.
 */
export function completeModelArgs(text: string, catalog: ModelCatalog | null): ArgCompletion[] {
  if (!catalog) return [];
  const byName = (name: string) =>
    catalog.providers.find((p) => p.id === name.toLowerCase() || p.aliases.includes(name.toLowerCase()));
  const two = /^\/model (\S+) (\S*)$/.exec(text);
  if (two) {
    // `/model PROVIDER MODEL`: the provider named explicitly
    const p = byName(two[1]!);
    const rest = two[2]!.toLowerCase();
    if (!p || p.kind === 'unsupported') return [];
    return p.models
      .filter((x) => x.toLowerCase().startsWith(rest))
      .slice(0, MAX_ITEMS)
      .map((m) => ({ text: `/model ${two[1]} ${m}`, label: `${two[1]} ${m}`, detail: p.label, final: true }));
  }
  const m = /^\/model (\S*)$/.exec(text);
  if (!m) return [];
  const word = m[1]!;
  const lower = word.toLowerCase();
  const slash = word.indexOf('/');
  const own = byName(catalog.provider);
  // on an aggregator, vendor/model is its own model id (the daemon reads it so): a switch to a
  // hosted provider is offered in the explicit two-word form instead
  const slashSwitches = (p: ModelCatalog['providers'][number]) =>
    !own?.aggregator || p.id === own.id || p.kind === 'local' || p.aggregator === true;
  const out: ArgCompletion[] = [];
  if (slash >= 0) {
    const head = word.slice(0, slash);
    const rest = word.slice(slash + 1).toLowerCase();
    const p = byName(head);
    if (p && slashSwitches(p)) {
      for (const model of p.models.filter((x) => x.toLowerCase().startsWith(rest)))
        out.push({
          text: `/model ${head}/${model}`,
          label: `${head}/${model}`,
          detail: p.label,
          final: true,
        });
    }
  } else {
    const usable = catalog.providers.filter((p) => p.kind !== 'unsupported');
    for (const p of usable.filter(
      (x) => x.id.startsWith(lower) || x.aliases.some((a) => a.startsWith(lower)),
    )) {
      const sep = slashSwitches(p) ? '/' : ' ';
      out.push({
        text: `/model ${p.id}${sep}`,
        label: `${p.id}${sep}`,
        detail: `${p.label} · ${status(p)}`,
        final: false,
      });
    }
  }
  const known = [...new Set([...catalog.models, ...(own?.models ?? [])])];
  for (const model of known.filter((x) => x.toLowerCase().startsWith(lower) && x !== word)) {
    const label = model === catalog.current ? `${model} (current)` : model;
    out.push({ text: `/model ${model}`, label, detail: catalog.provider, final: true });
  }
  return out.slice(0, MAX_ITEMS);
}

/** Fetches and caches the catalog; tells subscribers when a new one arrived. */
export class ModelCatalogSource {
  private catalog: ModelCatalog | null = null;
  private at = -Infinity;
  private loading = false;
  private version = 0;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly load: () => Promise<ModelListResult>,
    private readonly now: () => number = Date.now,
  ) {}

  /** For `useSyncExternalStore`: subscribe to new catalogs. */
  readonly subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  /** For `useSyncExternalStore`: changes whenever a new catalog arrived. */
  readonly snapshot = (): number => this.version;

  /** Forgets the catalog (after a switch: the configured provider changed). */
  invalidate(): void {
    this.at = -Infinity;
  }

  /** The completions of `text`; starts a fetch when `/model ` is typed and the catalog is missing or old. */
  readonly complete = (text: string): ArgCompletion[] => {
    if (!text.startsWith('/model ')) return [];
    if (!this.loading && this.now() - this.at > CATALOG_TTL_MS) {
      this.loading = true;
      this.load().then(
        (r) => {
          this.catalog = {
            provider: r.provider ?? '',
            current: r.current,
            providers: r.providers ?? [],
            models: r.models.map((x) => x.id),
          };
          this.at = this.now();
          this.loading = false;
          this.version++;
          for (const fn of this.listeners) fn();
        },
        () => {
          // a daemon that cannot answer now is asked again a little later, not at every key
          this.at = this.now() - CATALOG_TTL_MS + CATALOG_RETRY_MS;
          this.loading = false;
        },
      );
    }
    return completeModelArgs(text, this.catalog);
  };
}
