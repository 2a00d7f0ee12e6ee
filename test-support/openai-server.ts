/**
 * A scripted fake of an OpenAI-compatible Chat Completions endpoint (`POST /v1/chat/completions`,
 * `stream: true`) for tests. It streams SSE chunks as the real API does (tool calls in fragments, a
 * usage chunk when asked for) and rejects the conversations a real server would reject, so that a
 * request the adapter shapes wrongly fails here rather than in production.
 */
export { startOpenAIServer } from './openai-server/server.js';
export type {
  ChatMessage,
  ChatRequestBody,
  FinishReason,
  OpenAIServer,
  OpenAIServerOptions,
  RecordedRequest,
  Script,
  ScriptedCut,
  ScriptedSilence,
  ScriptedError,
  ScriptedReply,
  ScriptedToolCall,
  ScriptedTurn,
  ScriptedUsage,
} from './openai-server/types.js';
