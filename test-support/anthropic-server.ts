/**
 * A scripted fake of the Anthropic Messages API (`POST /v1/messages`, `stream: true`) for tests,
 * benchmarks and the demo. It speaks the real wire protocol (SSE events, error envelope, request-id,
 * retry headers) so the real `@anthropic-ai/sdk` client can be pointed at it, and it rejects the
 * requests the real API would reject so that a conversation the agent builds wrongly fails here
 * rather than in production. Only node built-ins, so benchmarks and the demo can load it as is.
 *
 * The implementation lives in `anthropic-server/`; this module is the entry every importer uses.
 */
export { estimateTokens } from './anthropic-server/common.js';
export { startAnthropicServer } from './anthropic-server/server.js';
export type {
  AnthropicServer,
  AnthropicServerOptions,
  MessagesRequestBody,
  Pace,
  RecordedRequest,
  RequestBlock,
  RequestMessage,
  RequestTool,
  Script,
  ScriptedBlock,
  ScriptedCut,
  ScriptedError,
  ScriptedFault,
  ScriptedGarbled,
  ScriptedHang,
  ScriptedMessage,
  ScriptedReply,
  ScriptedSilence,
  SimUsage,
  StopReason,
  WebSearchHit,
} from './anthropic-server/types.js';
