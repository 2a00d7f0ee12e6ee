import { blocksOf, type Message } from '../core/messages.js';

function toolUseIds(message: Message): string[] {
  return blocksOf(message).flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
}

function toolResultIds(message: Message | undefined): Set<string> {
  if (!message || message.role !== 'user') return new Set();
  return new Set(blocksOf(message).flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])));
}

/**
 * Makes a history the API will accept: drops tool_use blocks that have no tool_result right after
 * them (a run stopped mid-turn), tool_results that answer nothing, empty messages, and merges
 * neighbours of the same role.
 */
export function repairHistory(input: readonly Message[]): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < input.length; i++) {
    const message = input[i]!;
    let blocks = blocksOf(message);
    if (message.role === 'assistant') {
      const answered = toolResultIds(input[i + 1]);
      blocks = blocks.filter((b) => b.type !== 'tool_use' || answered.has(b.id));
    } else {
      const prev = out[out.length - 1];
      const asked = new Set(prev && prev.role === 'assistant' ? toolUseIds(prev) : []);
      blocks = blocks.filter((b) => b.type !== 'tool_result' || asked.has(b.tool_use_id));
    }
    if (blocks.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === message.role) {
      const merged = [...blocksOf(last), ...blocks];
      // The API wants tool results ahead of anything else in a user message.
      last.content = [...merged.filter((b) => b.type === 'tool_result'), ...merged.filter((b) => b.type !== 'tool_result')];
    } else if (message.role === 'user') {
      out.push({ role: 'user', content: blocks });
    } else {
      out.push({ role: 'assistant', content: blocks });
    }
  }
  while (out.length > 0 && out[0]!.role !== 'user') out.shift();
  return out;
}
