/** What the API server says about itself (`GET /v1/capabilities`). */
import type { ApiServerSettings } from './adapter.js';

/** `GET /v1/capabilities`: what the server offers, for UIs and orchestrators. */
export function capabilities(settings: ApiServerSettings): object {
  return {
    object: 'hermes.api_server.capabilities',
    platform: 'hermes-agent',
    model: settings.modelName,
    auth: { type: 'bearer', required: true },
    session_header: 'X-Hermes-Session-Id',
    features: {
      chat_completions: true,
      chat_completions_streaming: true,
      stream_usage: true,
      tool_progress_events: true,
      // inline (data: URL) images, passed to the model when it takes images (`model.vision`)
      image_input: true,
      client_tools: false,
      responses_api: true,
      responses_streaming: true,
      cors: (settings.corsOrigins ?? []).length > 0,
    },
    endpoints: {
      chat_completions: '/v1/chat/completions',
      responses: '/v1/responses',
      models: '/v1/models',
      capabilities: '/v1/capabilities',
    },
  };
}
