/** One HTTP request waiting for its turn's answer, and what the turn produced so far. */
import type { ServerResponse } from 'node:http';
import type { ExtraHeaders } from './http.js';
import type { AnswerMeta, AnswerUsage } from './openai-wire.js';
import type { ResponseBuilder } from './responses.js';
import type { AnswerFormat } from './structured.js';

/** A request being answered (chat completion or response). */
export interface Pending {
  meta: AnswerMeta;
  res: ServerResponse;
  stream: boolean;
  includeUsage: boolean;
  texts: string[];
  streamed: string;
  /** Streamed text not sent yet: the reply so far could still be a silence marker. */
  held: string;
  /** A model call is streaming (`message.start` seen, its `message.complete` not yet). */
  calling?: boolean;
  /** A new assistant message started after text was streamed: the next text opens with a blank line. */
  separate: boolean;
  usage: AnswerUsage;
  /** Why the model stopped its last call (`message.complete`'s `finish_reason`), when it said. */
  finish?: string;
  /** Tool names of the turn's calls by tool id (for their progress events). */
  tools: Map<string, string>;
  /** The turn failed: its error, and the model's error kind when known. */
  error?: { message: string; kind?: string; status?: number };
  done: boolean;
  /** The client went away before the answer was complete. */
  abandoned?: boolean;
  /** `/stop` was sent a second time (the turn started after the first). */
  restopped?: boolean;
  /** `response_format` demanding JSON: text is not streamed; the checked answer is sent at the end. */
  format?: AnswerFormat;
  /** Headers of the answer (CORS, the session header). */
  extra?: ExtraHeaders;
  /** A Responses request: its builder and where it is stored. */
  response?: {
    builder: ResponseBuilder;
    store: boolean;
    conversation: string;
    name: string | null;
    previous: string | null;
  };
}

/** A fresh request state. */
export function newPending(
  res: ServerResponse,
  meta: AnswerMeta,
  stream: boolean,
  includeUsage: boolean,
): Pending {
  return {
    meta,
    res,
    stream,
    includeUsage,
    texts: [],
    streamed: '',
    held: '',
    separate: false,
    usage: { prompt: 0, completion: 0 },
    tools: new Map(),
    done: false,
  };
}
