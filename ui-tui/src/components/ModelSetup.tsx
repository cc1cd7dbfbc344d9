/**
 * First-run model setup card, shown when the profile has no usable model: pick where the model
 * runs — a local server found on loopback (Ollama, llama.cpp, vLLM, LM Studio), OpenRouter or
 * OpenAI with an API key, or any OpenAI-compatible server by base URL and an optional API key —
 * then the model. A key is typed masked and handed to `onDone`, which saves it through the
 * daemon; it is never shown.
 *
 * Keys: ↑/↓ or 1–9 choose, Enter selects, Esc goes back (or skips on the first step).
 */
import { Box, Text, useInput } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { CUSTOM_KEY_VAR, HOSTED, type HostedProvider, type SetupChoice } from '../setup/model-setup.js';
import { LOCAL_SERVERS, normalizeBaseUrl, type FoundServer } from '../setup/probe.js';
import { withCursor } from './Composer.js';
import * as ed from './editor.js';
import { cleanText, truncate } from './format.js';
import { theme } from './theme.js';
import { fieldKey } from './text-field.js';

/** Props of `ModelSetup`. */
export interface ModelSetupProps {
  profile: string;
  /** Saves the choice; a rejection is shown and the user can try again. */
  onDone: (choice: SetupChoice) => Promise<void>;
  /** Esc on the first step: leave without a model. */
  onSkip: () => void;
  /** Finds local servers (default: none; the App passes `probeLocalServers`). */
  probeLocal?: () => Promise<FoundServer[]>;
  /** Lists the models of a server by base URL (with its key, if any): ids, or an Error saying why not. */
  probeUrl?: (baseUrl: string, key?: string) => Promise<string[] | Error>;
  width?: number;
  isActive?: boolean;
}

type Target =
  | { kind: 'server'; baseUrl: string; key?: string }
  | { kind: 'hosted'; provider: HostedProvider; key: string };
type Step =
  | { name: 'provider' }
  | { name: 'key'; provider: HostedProvider }
  | { name: 'url'; failed?: string; key?: string }
  | { name: 'serverKey'; baseUrl: string }
  | { name: 'checking'; baseUrl: string }
  | { name: 'model'; target: Target; models: string[] }
  | { name: 'typeModel'; target: Target }
  | { name: 'saving' };

interface Option {
  label: string;
  detail: string;
  pick: () => void;
}

const LIST_MAX = 8;

/** The setup card. */
export function ModelSetup(props: ModelSetupProps): React.JSX.Element {
  const { width = 80, isActive = true } = props;
  const [step, setStepState] = useState<Step>({ name: 'provider' });
  const [field, setFieldState] = useState<ed.EditorState>(ed.EMPTY);
  const [sel, setSelState] = useState(0);
  const [found, setFoundState] = useState<FoundServer[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // key handlers read refs: a key can arrive before React re-subscribes the latest handler
  const stepRef = useRef(step);
  const fieldRef = useRef(field);
  const selRef = useRef(sel);
  const foundRef = useRef(found);
  const propsRef = useRef(props);
  propsRef.current = props;

  const setStep = (s: Step, text = ''): void => {
    stepRef.current = s;
    setStepState(s);
    setField(ed.editorOf(text));
    setSel(0);
  };
  const setField = (s: ed.EditorState): void => {
    fieldRef.current = s;
    setFieldState(s);
  };
  const setSel = (i: number): void => {
    selRef.current = i;
    setSelState(i);
  };
  const setFound = (f: FoundServer[]): void => {
    foundRef.current = f;
    setFoundState(f);
  };

  useEffect(() => {
    let live = true;
    void (propsRef.current.probeLocal ?? (async () => []))()
      .catch(() => [])
      .then((servers) => live && setFound(servers));
    return () => {
      live = false;
    };
  }, []);

  const save = (choice: SetupChoice): void => {
    const back = stepRef.current;
    setStep({ name: 'saving' });
    setError(null);
    propsRef.current.onDone(choice).catch((err: unknown) => {
      setError(`Could not save: ${err instanceof Error ? err.message : String(err)}`);
      setStep(back);
    });
  };
  const chooseModel = (target: Target, model: string): void => {
    save(
      target.kind === 'server'
        ? { kind: 'server', baseUrl: target.baseUrl, model, ...(target.key ? { key: target.key } : {}) }
        : { ...target, model },
    );
  };
  const checkUrl = (baseUrl: string, key?: string): void => {
    setStep({ name: 'checking', baseUrl });
    void (propsRef.current.probeUrl ?? (async () => new Error('cannot check')))(baseUrl, key).then((r) => {
      if (stepRef.current.name !== 'checking') return;
      if (r instanceof Error) {
        setError(`${r.message}. Enter again to use it anyway, or change it.`);
        setStep({ name: 'url', failed: baseUrl, ...(key ? { key } : {}) }, baseUrl);
      } else {
        setError(null);
        const target: Target = { kind: 'server', baseUrl, ...(key ? { key } : {}) };
        setStep(r.length > 0 ? { name: 'model', target, models: r } : { name: 'typeModel', target });
      }
    });
  };

  const options = (s: Step): Option[] => {
    if (s.name === 'provider') {
      return [
        ...(foundRef.current ?? []).map((f) => ({
          label: `${f.name} (running here)`,
          detail: `${f.baseUrl} · ${f.models.length} model${f.models.length === 1 ? '' : 's'}`,
          pick: () => {
            const target: Target = { kind: 'server', baseUrl: f.baseUrl };
            setStep(
              f.models.length ? { name: 'model', target, models: f.models } : { name: 'typeModel', target },
            );
          },
        })),
        ...(['openrouter', 'openai'] as const).map((p) => ({
          label: HOSTED[p].label,
          detail: `hosted · needs ${HOSTED[p].keyVar}`,
          pick: () => setStep({ name: 'key', provider: p }),
        })),
        {
          label: 'Another OpenAI-compatible server',
          detail: 'enter its base URL',
          pick: () => setStep({ name: 'url' }, 'http://127.0.0.1:'),
        },
      ];
    }
    if (s.name === 'model') {
      return [
        ...s.models.map((m) => ({ label: m, detail: '', pick: () => chooseModel(s.target, m) })),
        {
          label: 'Type a model id…',
          detail: '',
          pick: () => setStep({ name: 'typeModel', target: s.target }),
        },
      ];
    }
    return [];
  };

  const submitField = (text: string): void => {
    const s = stepRef.current;
    if (s.name === 'key') {
      if (!text) return setError('The key is empty.');
      setError(null);
      const target: Target = { kind: 'hosted', provider: s.provider, key: text };
      return setStep({ name: 'typeModel', target }, HOSTED[s.provider].suggestedModel);
    }
    if (s.name === 'url') {
      const baseUrl = normalizeBaseUrl(text);
      if (!/^https?:\/\/[^/]+/i.test(baseUrl)) return setError('Enter an http(s) URL.');
      if (s.failed === baseUrl) {
        // second Enter on a URL that did not answer: use it anyway (with the key given before)
        return setStep({
          name: 'typeModel',
          target: { kind: 'server', baseUrl, ...(s.key ? { key: s.key } : {}) },
        });
      }
      setError(null);
      return setStep({ name: 'serverKey', baseUrl });
    }
    if (s.name === 'serverKey') return checkUrl(s.baseUrl, text || undefined);
    if (s.name === 'typeModel') {
      if (!text && s.target.kind === 'hosted') return setError('Enter a model id.');
      return chooseModel(s.target, text);
    }
  };

  useInput(
    (input, key) => {
      const s = stepRef.current;
      if (s.name === 'saving' || s.name === 'checking') return;
      if (key.escape) {
        setError(null);
        if (s.name === 'provider') return propsRef.current.onSkip();
        return setStep({ name: 'provider' });
      }
      const opts = options(s);
      if (opts.length > 0) {
        const cur = selRef.current;
        if (key.upArrow) return setSel(Math.max(0, cur - 1));
        if (key.downArrow) return setSel(Math.min(opts.length - 1, cur + 1));
        if (key.return) return opts[cur]?.pick();
        if (/^[1-9]$/.test(input) && Number(input) <= opts.length) return opts[Number(input) - 1]!.pick();
        return;
      }
      const r = fieldKey(fieldRef.current, input, key);
      if (!r) return;
      setField(r.state);
      if (r.submit) submitField(r.state.text.trim());
    },
    { isActive },
  );

  const opts = options(step);
  const start = Math.max(0, Math.min(sel - Math.floor(LIST_MAX / 2), opts.length - LIST_MAX));
  const shownField =
    step.name === 'key' || step.name === 'serverKey'
      ? `${'•'.repeat(Math.min(field.text.length, 32))}${field.text.length ? ` (${field.text.length} characters)` : ''}`
      : withCursor(field);
  const lines: Record<Step['name'], string> = {
    provider: 'Where does the model run?',
    key:
      step.name === 'key'
        ? `${HOSTED[step.provider].label} API key (${HOSTED[step.provider].keyVar}) · get one at ${HOSTED[step.provider].keyUrl}`
        : '',
    url: 'Base URL of an OpenAI-compatible server (the part before /chat/completions)',
    serverKey: `API key of that server, if it needs one (saved as ${CUSTOM_KEY_VAR}) · empty: none`,
    checking: step.name === 'checking' ? `Asking ${step.baseUrl}/models …` : '',
    model: 'Which model?',
    typeModel:
      step.name === 'typeModel' && step.target.kind === 'server'
        ? 'Model id (empty: the server’s only model)'
        : 'Model id',
    saving: 'Saving through the daemon…',
  };
  const hint =
    step.name === 'provider'
      ? '↑/↓ or 1–9 choose · Enter selects · Esc skips (/setup later)'
      : opts.length > 0
        ? '↑/↓ or 1–9 choose · Enter selects · Esc back'
        : step.name === 'key' || step.name === 'serverKey'
          ? 'Paste or type it (hidden) · saved 0600 in the profile’s .env by the daemon · Enter continues · Esc back'
          : 'Enter continues · Esc back';
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1} width={width}>
      <Text bold color={theme.accent}>
        Set up a model · profile {cleanText(props.profile)}
      </Text>
      <Text>{lines[step.name]}</Text>
      {opts.slice(start, start + LIST_MAX).map((o, i) => {
        const n = start + i;
        const on = n === sel;
        return (
          <Text key={n} wrap="truncate-end">
            <Text color={on ? theme.accent : undefined} bold={on}>
              {on ? '❯ ' : '  '}
              {n < 9 ? `${n + 1}. ` : '   '}
              {truncate(cleanText(o.label), Math.max(10, width - 30))}
            </Text>
            {o.detail ? <Text color={theme.muted}> {cleanText(o.detail)}</Text> : null}
          </Text>
        );
      })}
      {step.name === 'provider' && found === null ? (
        <Text color={theme.muted}>
          ⋯ looking for local servers ({LOCAL_SERVERS.map((s) => s.name).join(', ')})
        </Text>
      ) : null}
      {step.name === 'provider' && found !== null && found.length === 0 ? (
        <Text color={theme.muted}>No local server answered on the usual ports.</Text>
      ) : null}
      {['key', 'serverKey', 'url', 'typeModel'].includes(step.name) ? (
        <Text>
          <Text color={theme.accent}>› </Text>
          {shownField}
        </Text>
      ) : null}
      {error ? <Text color={theme.error}>{cleanText(error)}</Text> : null}
      <Text color={theme.muted}>{hint}</Text>
    </Box>
  );
}
