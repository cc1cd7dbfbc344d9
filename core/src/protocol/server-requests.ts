/**
 * Requests the daemon sends to clients, with ids `srq-…`; `kind` names what each asks. Sent to
 * every attached client that declared the capability; the first answer wins, the others receive
 * `request.resolved`. No answer within `approvals.timeout` → deny. A client may answer either by
 * replying to the server request or with `approval.answer` / `clarify.answer` (methods.ts); both
 * reach the same owner of the request (core/src/approvals/pending.ts).
 */
import { z } from 'zod';
import { APPROVAL_CHOICES, APPROVAL_DENY_REASONS, REQUEST_KINDS } from './approval-choices.js';

export * from './approval-choices.js';

export const ApprovalChoiceSchema = z.enum(APPROVAL_CHOICES);
export const RequestKindSchema = z.enum(REQUEST_KINDS);

export const ApprovalRequestParams = z.object({
  session_id: z.string(),
  request_id: z.string(),
  /** Always `approval`: what the request is, without guessing from its method or id. */
  kind: z.literal('approval'),
  command: z.string(),
  /** Why it is flagged. */
  description: z.string(),
  choices: z.array(ApprovalChoiceSchema),
  /**
   * What `session` and `always` would approve: one allowlist entry per distinct rule hit
   * (core/src/approvals/allowlist-entry.ts), e.g. `recursive-delete: rm -f -r [/home/u/proj/build]`.
   * `session` remembers them for this session, `always` adds them to the profile's
   * `command_allowlist`; nothing wider. Absent from older daemons.
   */
  allows: z.array(z.string()).optional(),
  /** Epoch ms after which it is denied automatically. */
  expires_at: z.number().optional(),
  /**
   * A file edit waiting to be written (`approvals.edits: ask`): the file as shown, and the change
   * as a unified diff (`--- a/…`, `+++ b/…`, hunks; capped at 20,000 characters, head and tail
   * kept). Only `once` (write it) and `deny` are offered; nothing is written without `once`.
   */
  edit: z.object({ path: z.string(), diff: z.string() }).optional(),
});
/**
 * `reason` (with `deny` only): `no_approver` — the client has no one who could approve (see
 * `approval.answer`).
 */
export const ApprovalRequestResult = z.object({
  choice: ApprovalChoiceSchema,
  reason: z.enum(APPROVAL_DENY_REASONS).optional(),
});

export const ClarifyRequestParams = z.object({
  session_id: z.string(),
  request_id: z.string(),
  /** Always `clarify`. */
  kind: z.literal('clarify'),
  question: z.string(),
  choices: z.array(z.string()).optional(),
  expires_at: z.number().optional(),
});
/** `answer` null means the user cancelled. */
export const ClarifyRequestResult = z.object({ answer: z.string().nullable() });

/**
 * `file.read`: the text of a file as the client (an editor) has it — its buffer, unsaved edits
 * included. Sent to one attached client with `capabilities.files`; an error or no answer within
 * a few seconds makes the tool read the disk instead.
 */
export const FileReadParams = z.object({
  session_id: z.string(),
  /** Absolute path. */
  path: z.string(),
});
export const FileReadResult = z.object({ content: z.string() });

/**
 * `file.write`: replaces a file's text in the client (an editor's buffer). An error or no answer
 * within a few seconds makes the tool write the disk instead.
 */
export const FileWriteParams = z.object({
  session_id: z.string(),
  /** Absolute path of a file that exists. */
  path: z.string(),
  content: z.string(),
});
export const FileWriteResult = z.object({});

/** Server request method → params and result schemas. */
export const ServerRequests = {
  'approval.request': { params: ApprovalRequestParams, result: ApprovalRequestResult },
  'clarify.request': { params: ClarifyRequestParams, result: ClarifyRequestResult },
  'file.read': { params: FileReadParams, result: FileReadResult },
  'file.write': { params: FileWriteParams, result: FileWriteResult },
} as const;
export type ServerRequestMethod = keyof typeof ServerRequests;
export type ServerRequestParams<M extends ServerRequestMethod> = z.infer<
  (typeof ServerRequests)[M]['params']
>;
export type ServerRequestResult<M extends ServerRequestMethod> = z.infer<
  (typeof ServerRequests)[M]['result']
>;
