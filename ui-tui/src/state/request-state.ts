/**
 * The open requests (approvals, questions) of the session view: adding one shown by the daemon,
 * reading a snapshot's, settling one with the line that says what settled it, and which running
 * tool an approval card is about.
 */
import { APPROVAL_CHOICES } from '@hermes/core/constants';
import type { AttachResult } from '@hermes/client';
import { resolutionDraft } from './event-items.js';
import { appendItems } from './transcript-window.js';
import type { OpenRequestView, RunningToolView, SessionState } from './types.js';

/** Request ids remembered as shown here (so a settled one is told once). */
const MAX_SEEN_REQUESTS = 50;

/** The ids of requests shown here: `state`'s and those of `requests`, the newest kept. */
export function seenWith(state: Pick<SessionState, 'seenRequests'>, requests: OpenRequestView[]): string[] {
  return [...new Set([...state.seenRequests, ...requests.map((r) => r.requestId)])].slice(-MAX_SEEN_REQUESTS);
}

/** Adds a request shown by the daemon (once), remembering that it was shown. */
export function addRequest(state: SessionState, req: OpenRequestView): SessionState {
  const seen = state.seenRequests.includes(req.requestId)
    ? state.seenRequests
    : [...state.seenRequests, req.requestId].slice(-MAX_SEEN_REQUESTS);
  if (state.requests.some((r) => r.requestId === req.requestId)) return { ...state, seenRequests: seen };
  return { ...state, requests: [...state.requests, req], seenRequests: seen };
}

/** Converts a protocol open request (snapshot) to the view, or null when malformed. */
export function requestView(
  kind: string,
  requestId: string,
  params: Record<string, unknown>,
): OpenRequestView | null {
  if (kind === 'approval' && typeof params.command === 'string') {
    return {
      requestId,
      kind: 'approval',
      params: {
        command: params.command,
        description: typeof params.description === 'string' ? params.description : '',
        choices: Array.isArray(params.choices) ? params.choices.map(String) : [...APPROVAL_CHOICES],
        ...(Array.isArray(params.allows) ? { allows: params.allows.map(String) } : {}),
        ...(typeof params.expires_at === 'number' ? { expires_at: params.expires_at } : {}),
        ...editParam(params.edit),
      },
    };
  }
  if (kind === 'clarify' && typeof params.question === 'string') {
    return {
      requestId,
      kind: 'clarify',
      params: {
        question: params.question,
        ...(Array.isArray(params.choices) ? { choices: params.choices.map(String) } : {}),
        ...(typeof params.expires_at === 'number' ? { expires_at: params.expires_at } : {}),
      },
    };
  }
  return null;
}

/** The `edit` of approval params when well-formed (a path and a diff), as a spread. */
function editParam(edit: unknown): { edit?: { path: string; diff: string } } {
  if (typeof edit !== 'object' || edit === null) return {};
  const { path, diff } = edit as Record<string, unknown>;
  return typeof path === 'string' && typeof diff === 'string' ? { edit: { path, diff } } : {};
}

/** The views of a snapshot's open requests (malformed ones left out). */
export function openRequests(list: AttachResult['open_requests']): OpenRequestView[] {
  return list.flatMap((r) => {
    const v = requestView(r.kind, r.request_id, r.params);
    return v ? [v] : [];
  });
}

/**
 * The running tools as the live part shows them: the one an open approval request is about is
 * marked `awaitingApproval` (it has not started). Matched by its command, or the only one running.
 */
export function runningToolsView(state: Pick<SessionState, 'tools' | 'requests'>): RunningToolView[] {
  const commands = new Set(state.requests.flatMap((r) => (r.kind === 'approval' ? [r.params.command] : [])));
  if (commands.size === 0) return state.tools;
  const byCommand = (t: RunningToolView): boolean =>
    typeof t.args.command === 'string' && commands.has(t.args.command);
  const matched = state.tools.some(byCommand);
  return state.tools.map((t) =>
    byCommand(t) || (!matched && state.tools.length === 1) ? { ...t, awaitingApproval: true } : t,
  );
}

/**
 * Drops a settled request's card and says, once, what settled it: from `request.resolved`, or
 * from the -32003 answer to this client's own late answer, whichever comes first (the id then
 * leaves `seenRequests`, so the other one adds no second line). Requests never shown here get
 * no line.
 */
export function resolveRequest(
  state: SessionState,
  requestId: string,
  kind: 'approval' | 'clarify',
  choice: unknown,
  by: string,
): SessionState {
  const req = state.requests.find((r) => r.requestId === requestId);
  const known = req !== undefined || state.seenRequests.includes(requestId);
  const next = {
    ...state,
    requests: state.requests.filter((r) => r.requestId !== requestId),
    seenRequests: state.seenRequests.filter((id) => id !== requestId),
  };
  if (!known) return next;
  return appendItems(next, [resolutionDraft(kind, choice, by, state)]);
}
