/**
 * The `config.yaml` schema: zod schemas with defaults. Unknown keys are kept (loose
 * objects) so a newer or hand-edited file survives a load/save round trip.
 */
import { z } from 'zod';
import { PlatformsConfigSchema, ResetPolicyConfigSchema } from '../messaging/platform-config.js';
import { normalizeProviderName, unknownProviderMessage } from '../model/presets.js';
import { isCidr } from '../tools/web/fake-ip-ranges.js';

/** The version written into `config.yaml` as `_config_version`; older files are migrated. */
export const CONFIG_VERSION = 2;

/**
 * A model provider: the id or an alias of a preset (core/src/model/presets.ts: `openrouter`,
 * `anthropic`, `deepseek`, `zai`/`glm`, `kimi-coding`, `lmstudio` …), `custom` (any base URL) or
 * `auto` (the first provider with a key). Loaded as the canonical id; an unknown name is an error
 * naming the closest ids.
 */
export const ProviderName = z.string().transform((name, ctx) => {
  const id = normalizeProviderName(name);
  if (id === undefined) {
    ctx.addIssue({ code: 'custom', message: unknownProviderMessage(name) });
    return z.NEVER;
  }
  return id;
});
/** A canonical provider id (see `ProviderName`). */
export type ProviderName = string;

/** One provider entry of `fallback_providers`, tried in order when the current one keeps failing. */
export const FallbackProvider = z.looseObject({
  provider: ProviderName.refine((id) => id !== 'auto', {
    message: '"auto" is not a fallback: name the provider (openrouter, openai, deepseek …)',
  }),
  model: z.string().min(1).optional(),
  base_url: z.url().optional(),
  /** Name of the secret holding the key, when not the provider's standard variable. */
  api_key_env: z.string().optional(),
});
export type FallbackProvider = z.infer<typeof FallbackProvider>;

const positiveInt = z.number().int().positive();

/** A sandbox mode (`terminal.sandbox`): bare host, workspace-writable, or workspace-only without network. */
const SandboxModeSchema = z.enum(['off', 'workspace', 'strict']);

/** `terminal.sandbox` per lane; a lane left out keeps its default (tools/sandbox/policy.ts). */
const SandboxLanesSchema = z.strictObject({
  tui: SandboxModeSchema.optional(),
  platforms: SandboxModeSchema.optional(),
  cron: SandboxModeSchema.optional(),
  api: SandboxModeSchema.optional(),
});

export const ConfigSchema = z.looseObject({
  _config_version: z.number().int().nonnegative().default(CONFIG_VERSION),
  model: z
    .looseObject({
      default: z.string().default(''),
      provider: ProviderName.default('auto'),
      base_url: z.url().optional(),
      api_key_env: z.string().optional(),
      /** Context window in tokens; overrides the known-models table. */
      context_length: positiveInt.optional(),
      /** Request timeout per model call, seconds. */
      timeout: z.number().positive().default(600),
      /**
       * Whether the model accepts images: `auto` decides from the model id (core/src/model/
       * vision.ts), `true`/`false` override it. A prompt with images for a model without vision
       * is refused with a message naming the model and this setting.
       */
      vision: z.union([z.literal('auto'), z.boolean()]).default('auto'),
      /**
       * Price of the configured model in USD per million tokens (`input`, `output`, and the
       * optional `cache_read`, `cache_write`; a missing one is the input price), for a custom or
       * local model the bundled table does not know. Absent: the provider's models endpoint, the
       * bundled table, or `unknown` (core/src/model/pricing.ts).
       */
      pricing: z
        .strictObject({
          input: z.number().nonnegative(),
          output: z.number().nonnegative(),
          cache_read: z.number().nonnegative().optional(),
          cache_write: z.number().nonnegative().optional(),
        })
        .optional(),
      /**
       * How much the model may reason before answering: `none`, `low`, `medium` or `high`, mapped
       * to each API's parameter (OpenAI `reasoning_effort`, OpenRouter `reasoning`, Anthropic
       * `thinking` budget; core/src/model/reasoning.ts). Unset (the default): the provider's
       * default. A provider or model without it gets requests without it and one notice.
       * `/reasoning` changes it for one session.
       */
      reasoning_effort: z.enum(['none', 'low', 'medium', 'high']).optional(),
    })
    .prefault({}),
  /** Images attached to prompts (`/image`, clipboard paste, `chat -q --image`, the API server). */
  images: z
    .looseObject({
      /** Largest image accepted, bytes (decoded); a larger one is refused naming it. */
      max_bytes: positiveInt.default(20 * 1024 * 1024),
    })
    .prefault({}),
  fallback_providers: z.array(FallbackProvider).default([]),
  approvals: z
    .looseObject({
      mode: z.enum(['manual', 'smart', 'off']).default('manual'),
      /** Seconds to wait for an answer before denying. */
      timeout: positiveInt.default(300),
      /**
       * Model id of the smart check (`mode: smart`, core/src/approvals/smart.ts), asked through the
       * session's provider and keys; absent → the session's model.
       */
      smart_model: z.string().min(1).optional(),
      /** Seconds the smart check may take (retries included); past it the user is asked instead. */
      smart_timeout: z.number().positive().default(8),
      /** What a dangerous command inside a cron run does: no human is there. */
      cron_mode: z.enum(['deny', 'allow']).default('deny'),
      /**
       * `ask`: `write_file` and `patch` show the change as a diff and write only when approved
       * (denied, timed out or no one to ask → not written); `off`: they write at once.
       * `approvals.mode: off` (`--yolo`) asks nothing, edits included.
       */
      edits: z.enum(['ask', 'off']).default('off'),
      /**
       * Seconds an approval waits unanswered before it is also sent to the owner's home channel on
       * `escalate_to` (docs/hub.md); 0: never escalated.
       */
      escalate_after: z.number().nonnegative().default(60),
      /**
       * The configured chat platform (`telegram`, `discord` …) whose home channel gets escalated
       * approvals, with `once` and `deny` buttons only; absent: approvals are not escalated.
       */
      escalate_to: z.string().min(1).optional(),
    })
    .prefault({}),
  /**
   * Desktop notifications an attached TUI gives (docs/hub.md): when another session than the one
   * it shows waits for an approval (`approval`) or a question (`clarify`), or finishes a turn
   * (`done`); as a terminal bell (`bell`) and as OSC 9 / OSC 777 notifications (`osc`, passed
   * through tmux).
   */
  notifications: z
    .looseObject({
      approval: z.boolean().default(true),
      clarify: z.boolean().default(true),
      done: z.boolean().default(false),
      bell: z.boolean().default(true),
      osc: z.boolean().default(true),
    })
    .prefault({}),
  command_allowlist: z.array(z.string()).default([]),
  compression: z
    .looseObject({
      enabled: z.boolean().default(true),
      threshold: z.number().gt(0).lte(1).default(0.5),
      target_ratio: z.number().gt(0).lt(1).default(0.2),
      protect_last_n: z.number().int().nonnegative().default(20),
      summary_model: z.string().optional(),
    })
    .prefault({}),
  memory: z
    .looseObject({
      memory_char_limit: positiveInt.default(2200),
      user_char_limit: positiveInt.default(1375),
    })
    .prefault({}),
  code_execution: z
    .looseObject({
      timeout: positiveInt.default(300),
      max_tool_calls: positiveInt.default(50),
    })
    .prefault({}),
  /** The `web_search` / `web_extract` tools (core/src/tools/web/; documented in core/README.md). */
  web: z
    .looseObject({
      /**
       * Search backend of `web_search`: `auto` picks tavily (TAVILY_API_KEY), then brave
       * (BRAVE_API_KEY), then searxng (when `searxng_url` is set); `none` hides the tool.
       */
      search_provider: z.enum(['auto', 'none', 'tavily', 'brave', 'searxng']).default('auto'),
      /** Base URL of the Tavily API (override for proxies and tests). */
      tavily_url: z.url().default('https://api.tavily.com'),
      /** Base URL of the Brave Search API (override for proxies and tests). */
      brave_url: z.url().default('https://api.search.brave.com'),
      /** Base URL of a SearXNG instance with the JSON format enabled; empty = none. */
      searxng_url: z.union([z.url(), z.literal('')]).default(''),
      /** Timeout of one search request, seconds. */
      search_timeout: positiveInt.default(30),
      /**
       * Lets `web_extract` fetch loopback, private, link-local and other internal addresses (SSRF
       * guard off). Cloud metadata endpoints stay refused.
       */
      allow_private_urls: z.boolean().default(false),
      /**
       * Address blocks a local proxy answers DNS with ("fake-ip" TUN mode, e.g. `198.18.0.0/15`):
       * `web_extract` may connect to them. Blocks overlapping loopback, private, CGNAT,
       * unique-local, link-local or unspecified space are ignored; metadata stays refused
       * (tools/web/fake-ip-ranges.ts).
       */
      fake_ip_ranges: z
        .array(
          z.string().refine(isCidr, {
            message: 'must be an address block like 198.18.0.0/15 (address/bits)',
          }),
        )
        .default([]),
      /** Timeout of one page fetch (all redirects included), seconds. */
      extract_timeout: positiveInt.default(30),
      /** Largest response body read per page, bytes; a longer body is cut there. */
      extract_max_bytes: positiveInt.default(5_000_000),
      /** Longest text returned per page, chars; the rest is cut with a note. */
      extract_max_chars: positiveInt.default(20_000),
      /** Redirects followed per page. */
      max_redirects: z.number().int().nonnegative().default(5),
    })
    .prefault({}),
  /**
   * `@` references attached to a prompt (core/src/references/; docs/references.md): caps on the
   * content attached, bytes (UTF-8). A larger file, diff, listing or page is cut with a note.
   */
  references: z
    .looseObject({
      /** Most content of one reference, bytes. */
      max_file_bytes: positiveInt.default(100_000),
      /** Most content of all references of one prompt together, bytes. */
      max_total_bytes: positiveInt.default(400_000),
    })
    .prefault({}),
  /** Shadow-git snapshots before the agent edits files. */
  checkpoints: z
    .looseObject({
      enabled: z.boolean().default(true),
      /** Snapshots kept per working directory (older ones drop out of the list). */
      max_snapshots: positiveInt.default(50),
    })
    .prefault({}),
  /**
   * MCP servers: name → `{command, args?, env?, cwd?}` (stdio) or
   * `{url, headers?}` (streamable HTTP). Kept loose; `core/src/mcp/config.ts` validates each entry
   * and reports a bad one without dropping the others.
   */
  mcp_servers: z.record(z.string(), z.looseObject({})).default({}),
  /** Sub-agents of the `delegate_task` tool. */
  delegation: z
    .looseObject({
      /** Model calls one sub-agent may make (its iteration budget); a call may ask for fewer. */
      max_iterations: positiveInt.default(50),
      /** Tasks one `delegate_task` call may run, all at once. */
      max_parallel: positiveInt.default(3),
      /** Model of sub-agents when the call names none; default the parent's model. */
      model: z.string().optional(),
    })
    .prefault({}),
  agent: z
    .looseObject({
      /** Model calls per user turn before the loop stops. */
      max_turns: positiveInt.default(90),
    })
    .prefault({}),
  terminal: z
    .looseObject({
      /** Default timeout of the `terminal` tool, seconds. */
      timeout: positiveInt.default(180),
      /** Names of secrets from `.env` passed into the terminal tool's child environment. */
      env_passthrough: z.array(z.string()).default([]),
      /**
       * The OS sandbox (bubblewrap) of the processes tools start (docs/sandbox.md): one mode for
       * every lane, or per lane `{tui, platforms, cron, api}`. A lane left out: `tui` off, the
       * others `workspace` when the sandbox can run here (else off). Absent: every lane's default.
       */
      sandbox: z.union([SandboxModeSchema, SandboxLanesSchema]).optional(),
      /** Network for sandboxed commands; `strict` is always off. */
      network: z.enum(['on', 'off']).default('on'),
      /**
       * When a lane's configured sandbox cannot run here: `refuse` the command, or `ask` the user
       * once per session and run without the sandbox on yes. Absent: `ask` in the TUI lane,
       * `refuse` in the unattended lanes.
       */
      sandbox_fallback: z.enum(['refuse', 'ask']).optional(),
      /** Background processes (`terminal` with `background: true`; docs/processes.md). */
      background: z
        .looseObject({
          /**
           * `true`: `hermes gateway stop` leaves this profile's background processes running (the
           * next daemon adopts them); `false` (default): they are stopped after the sessions are told.
           */
          keep_on_stop: z.boolean().default(false),
        })
        .prefault({}),
    })
    .prefault({}),
  gateway: z
    .looseObject({
      drain_timeout: z.number().nonnegative().default(30),
      auto_continue: z.boolean().default(false),
      /** Default reset policy of platform sessions (per platform under `platforms`). */
      session_reset: ResetPolicyConfigSchema.optional(),
    })
    .prefault({}),
  tui: z
    .looseObject({
      alternate_screen: z.boolean().default(false),
    })
    .prefault({}),
  /** Messaging platforms: per-platform settings, allow-lists, reset policies. */
  platforms: PlatformsConfigSchema,
  /** IANA zone for naive cron times; empty means the machine's zone. */
  timezone: z.string().default(''),
  /** The cron scheduler (core/src/cron/). */
  cron: z
    .looseObject({
      /** Deliver replies wrapped with the job's name and a note that the agent cannot see replies. */
      wrap_response: z.boolean().default(true),
      /** Longest a cron run may take, seconds; then it is interrupted and recorded as failed. */
      timeout: positiveInt.default(600),
      /** Seconds between the daemon's ticks. */
      tick_interval: positiveInt.default(60),
      /** Module of an external trigger (`CronTrigger`); empty = the built-in ticker. */
      trigger: z.string().default(''),
    })
    .prefault({}),
});

/** A validated configuration with every default filled in. */
export type HermesConfig = z.infer<typeof ConfigSchema>;

/** The configuration with nothing set by the user. */
export function defaultConfig(): HermesConfig {
  return ConfigSchema.parse({});
}
