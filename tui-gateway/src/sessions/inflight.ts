/**
 * Tracks the not-yet-stored part of a running turn from its events, so `session.attach` can hand
 * a late client the partial reply and the running tools.
 */
import type { Inflight, WireEvent } from '@hermes/core/protocol';

/** Updates `inflight` for one event; returns the new value (null when no turn runs). */
export function applyInflight(inflight: Inflight | null, ev: WireEvent, now: number): Inflight | null {
  const p = ev.payload as Record<string, unknown>;
  switch (ev.type) {
    case 'turn.start':
      return {
        prompt: String(p.text ?? ''),
        text: '',
        reasoning: '',
        tools: [],
        completed_tools: [],
        started_at: now,
      };
    case 'turn.end':
      return null;
  }
  if (!inflight) return null;
  switch (ev.type) {
    case 'message.start':
      inflight.text = '';
      inflight.reasoning = '';
      break;
    case 'message.delta':
      inflight.text += String(p.text ?? '');
      break;
    case 'reasoning.delta':
      inflight.reasoning += String(p.text ?? '');
      break;
    case 'message.complete':
      // The message is stored before this event is emitted; it now comes from the database.
      inflight.text = '';
      inflight.reasoning = '';
      break;
    case 'tool.start':
      inflight.tools.push({
        tool_id: String(p.tool_id),
        name: String(p.name),
        args: (p.args as Record<string, unknown>) ?? {},
        ...(typeof p.summary === 'string' ? { summary: p.summary } : {}),
        started_at: now,
      });
      break;
    case 'tool.complete': {
      const i = inflight.tools.findIndex((t) => t.tool_id === p.tool_id);
      const started = i >= 0 ? inflight.tools.splice(i, 1)[0] : undefined;
      const blocked = p.blocked as { reason?: unknown } | undefined;
      inflight.completed_tools?.push({
        tool_id: String(p.tool_id),
        name: started?.name ?? '',
        ok: Boolean(p.ok),
        summary: String(p.summary ?? ''),
        duration_ms: Number(p.duration_ms ?? 0),
        ...(typeof blocked?.reason === 'string' ? { blocked: { reason: blocked.reason } } : {}),
      });
      break;
    }
    case 'status.update':
      inflight.status = String(p.state ?? '');
      break;
  }
  return inflight;
}
